import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import { errorMessage } from '../core/index.js';
import { type JsonlLine, lineKey, parseRow, readJsonlLines } from '../dataset/index.js';
import { createOrderedPool, readResumeState } from '../runner/index.js';

/** One output line, without its `id`; a line carrying `error` counts as failed. */
export type MappedRow = Record<string, unknown>;

export interface MapJsonlRowsOptions<S extends z.ZodType> {
  /** A JSONL path, or a stream (stdin) with `inputName` for messages. */
  readonly input: string | Readable;
  readonly inputName?: string;
  /** Rows to read instead of `input`'s JSONL lines (a JSON array file read element by element). */
  readonly lines?: AsyncIterable<JsonlLine>;
  /** A JSONL path (resumable), or a stream (stdout). */
  readonly output: string | Writable;
  /** Skip ids already in the output file (default true); false truncates it. */
  readonly resume?: boolean;
  /** Rows handled at once (default 1); lines are still written in input order. */
  readonly concurrency?: number;
  readonly schema: S;
  readonly idOf: (row: z.output<S>) => string;
  /** Its result is written as `{id, ...result}`; a throw is written as `{id, error}`. */
  readonly handle: (row: z.output<S>) => Promise<MappedRow> | MappedRow;
  /** Stops reading new rows; rows in flight finish and are written. */
  readonly signal?: AbortSignal;
  /** `rows` counts the rows written so far, not the skipped ones (the progress reporter's shape). */
  readonly onProgress?: (progress: { rows: number; failed: number; skipped: number }) => void;
  readonly onWarning?: (message: string) => void;
}

/** `rows` = `ok` + `failed` + `skipped`: every non-blank input line read. */
export interface JsonlRowsSummary {
  readonly rows: number;
  readonly ok: number;
  readonly failed: number;
  /** Already in the output file (resume). */
  readonly skipped: number;
  /** The signal fired: rows after the last one read were not looked at. */
  readonly interrupted: boolean;
}

/**
 * The loop the `verify` and `judge` commands share: read rows from JSONL, validate each with a
 * schema, handle up to `concurrency` at once, and write one JSON line per row in input order. A
 * row that fails validation or handling, or repeats an earlier id, is written as `{id, error}`
 * (never dropped) and counted; ids already in the output file are skipped, so a rerun resumes.
 */
export async function mapJsonlRows<S extends z.ZodType>(
  options: MapJsonlRowsOptions<S>,
): Promise<JsonlRowsSummary> {
  const name = options.inputName ?? (typeof options.input === 'string' ? options.input : '<stdin>');
  const resume = options.resume ?? true;
  const done = new Set<string>();
  if (typeof options.output === 'string' && resume) {
    const state = await readResumeState(options.output);
    for (const id of state.done) done.add(id);
    for (const warning of state.warnings) options.onWarning?.(warning);
  }
  const sink =
    typeof options.output === 'string'
      ? createWriteStream(options.output, { flags: resume ? 'a' : 'w' })
      : options.output;

  let ok = 0;
  let failed = 0;
  let skipped = 0;
  const write = async (line: MappedRow) => {
    if ('error' in line) failed++;
    else ok++;
    if (!sink.write(`${JSON.stringify(line)}\n`)) await once(sink, 'drain');
    options.onProgress?.({ rows: ok + failed, failed, skipped });
  };
  const skip = () => {
    skipped++;
    options.onProgress?.({ rows: ok + failed, failed, skipped });
  };
  const pool = createOrderedPool<MappedRow>(options.concurrency ?? 1, write);
  const record = (id: string, error: string) => pool.submit(async () => ({ id, error }));

  let interrupted = false;
  const seen = new Map<string, number>();
  for await (const line of options.lines ?? readJsonlLines(options.input)) {
    if (options.signal?.aborted) {
      interrupted = true;
      break;
    }
    const origin = { file: name, line: line.line };
    if (line.text === undefined) {
      const id = lineKey(origin);
      if (done.has(id)) skip();
      else await record(id, `${name}:${line.line}: ${line.error}`);
      continue;
    }
    const parsed = parseRow(line.text, origin, options.schema);
    const id = parsed.ok ? options.idOf(parsed.value) : parsed.id;
    if (done.has(id)) {
      skip();
      continue;
    }
    const firstLine = seen.get(id);
    if (firstLine !== undefined) {
      await record(
        lineKey(origin),
        `${name}:${line.line}: field "id": duplicate id "${id}" (first seen on line ${firstLine}); ids must be unique for results and resume to be meaningful`,
      );
      continue;
    }
    seen.set(id, line.line);
    if (!parsed.ok) {
      await record(id, parsed.errors.join('; '));
      continue;
    }
    const row = parsed.value;
    await pool.submit(async () => {
      try {
        return { id, ...(await options.handle(row)) };
      } catch (error) {
        return { id, error: `${name}:${line.line}: ${errorMessage(error)}` };
      }
    });
  }
  await pool.drain();
  if (typeof options.output === 'string') {
    sink.end();
    await once(sink, 'finish');
  }
  return { rows: ok + failed + skipped, ok, failed, skipped, interrupted };
}
