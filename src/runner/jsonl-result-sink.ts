import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { RewardKitError, type RewardResult } from '../core/index.js';
import { readResumeState } from './output-resume.js';
import type { ResultSink } from './result-sink.js';

/**
 * Bytes written lines may wait in before a write waits for the file: at the default 16 KiB a
 * write waited for the disk every 30 results or so, and scoring waited with it.
 */
const BUFFERED_BYTES = 1 << 20;

/**
 * Results (or any JSON lines with an `id`) as JSONL, appended to a file a resumed run continues (or written to a stream such as
 * stdout). A write error (disk full, a closed pipe) is kept and raised by the next write or the
 * close as `RK_OUTPUT`, instead of crashing the process from an unhandled 'error' event.
 */
export interface JsonlResultSink<T> extends ResultSink<T> {
  /** Writes lines serialized elsewhere (by `score --workers`' workers), each ending in a newline. */
  writeLines(text: string): Promise<void>;
}

export async function openJsonlResultSink<T = RewardResult>(
  output: string | Writable,
  resume: boolean,
): Promise<JsonlResultSink<T>> {
  const state =
    typeof output === 'string' && resume
      ? await readResumeState(output)
      : { done: new Set<string>(), warnings: [] };
  const sink =
    typeof output === 'string'
      ? createWriteStream(output, { flags: resume ? 'a' : 'w', highWaterMark: BUFFERED_BYTES })
      : output;
  const outputName = typeof output === 'string' ? output : '<stdout>';
  let sinkError: Error | undefined;
  const onSinkError = (error: Error) => {
    sinkError ??= error;
  };
  sink.on('error', onSinkError);
  const check = () => {
    if (sinkError) {
      throw new RewardKitError('RK_OUTPUT', `Writing ${outputName} failed: ${sinkError.message}`, {
        cause: sinkError,
      });
    }
  };
  const writeLines = async (text: string) => {
    check();
    if (text !== '' && !sink.write(text)) await once(sink, 'drain').catch(check);
    check();
  };
  return {
    done: state.done,
    warnings: state.warnings,
    write: (result: T) => writeLines(`${JSON.stringify(result)}\n`),
    writeLines,
    close: async () => {
      check();
      if (typeof output !== 'string') {
        sink.off('error', onSinkError);
        return;
      }
      const finished = once(sink, 'finish');
      sink.end();
      await finished.catch(check);
      check();
    },
  };
}
