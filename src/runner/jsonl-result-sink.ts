import { once } from 'node:events';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { RewardKitError, type RewardResult } from '../core/index.js';
import { readResumeState } from './output-resume.js';
import type { ResultSink } from './result-sink.js';

/**
 * Lines gathered before one write to an output file. The file is written synchronously: waiting
 * on a stream for every 16 KiB left scoring idle a seventh of the time, and a larger stream buffer
 * kept the waiting lines alive long enough for the garbage collector to move them to the old
 * generation (a 100,000-row run peaked 80 MB higher). A synchronous write of this much to the page
 * cache costs tens of microseconds.
 */
const WRITE_BYTES = 1 << 16;
/** The longest a line waits for its write. */
const FLUSH_MS = 100;

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
  const lines = typeof output === 'string' ? fileLines(output, resume) : streamLines(output, '<stdout>');
  return {
    done: state.done,
    warnings: state.warnings,
    write: (result: T) => lines.write(`${JSON.stringify(result)}\n`),
    writeLines: lines.write,
    close: lines.close,
  };
}

/** How a sink puts its lines: each `write` ends in a newline; errors are raised as `RK_OUTPUT`. */
interface LineWriter {
  write(text: string): Promise<void>;
  close(): Promise<void>;
}

const outputError = (name: string, error: Error) =>
  new RewardKitError('RK_OUTPUT', `Writing ${name} failed: ${error.message}`, { cause: error });

/**
 * Appends to (or truncates) a file, opened now: lines are written WRITE_BYTES at a time, and at
 * most FLUSH_MS after they came (so a slow judge run's file still grows as it goes). A failed
 * write is raised by the next call, and again by every later one.
 */
function fileLines(path: string, append: boolean): LineWriter {
  let fd: number | undefined;
  try {
    fd = openSync(path, append ? 'a' : 'w');
  } catch (error) {
    throw outputError(path, error as Error);
  }
  let failure: Error | undefined;
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (failure || pending === '' || fd === undefined) return;
    const bytes = Buffer.from(pending);
    pending = '';
    try {
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    } catch (error) {
      failure = outputError(path, error as Error);
    }
  };
  const check = () => {
    if (failure) throw failure;
  };
  return {
    async write(text) {
      check();
      pending += text;
      if (pending.length < WRITE_BYTES) {
        timer ??= setTimeout(flush, FLUSH_MS);
        return;
      }
      flush();
      check();
      // A turn of the event loop per write: with the input read a megabyte at a time, scoring
      // may otherwise run on promises alone, and Ctrl-C, SIGTERM and the progress bar would wait.
      await new Promise((resolve) => setImmediate(resolve));
    },
    async close() {
      flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      check();
    },
  };
}

/**
 * Writes to a stream (stdout) the caller owns, waiting for it to drain when its buffer is full.
 * A stream error is kept and raised by the next write or the close, instead of crashing the
 * process from an unhandled 'error' event.
 */
function streamLines(sink: Writable, name: string): LineWriter {
  let sinkError: Error | undefined;
  const onSinkError = (error: Error) => {
    sinkError ??= error;
  };
  sink.on('error', onSinkError);
  const check = () => {
    if (sinkError) throw outputError(name, sinkError);
  };
  return {
    async write(text) {
      check();
      if (text !== '' && !sink.write(text)) await once(sink, 'drain').catch(check);
      check();
    },
    async close() {
      check();
      sink.off('error', onSinkError);
    },
  };
}
