import type { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import { errorMessage } from '../core/index.js';
import { checkedRows, type FieldMapping, rowPlace } from '../dataset/index.js';
import { createOrderedPool, openJsonlResultSink } from '../runner/index.js';

/** One output line, without its `id`; a line carrying `error` counts as failed. */
export type MappedRow = Record<string, unknown>;

export interface MapJsonlRowsOptions<S extends z.ZodType> {
  /** A dataset path (JSONL, JSON array, Parquet, dataset folder), or a JSONL stream (stdin) with `inputName` for messages. */
  readonly input: string | Readable;
  readonly inputName?: string;
  /** The split to read from a dataset folder with several. */
  readonly split?: string;
  /** Where the schema's fields come from in the dataset's rows (`--map`, `--format`). */
  readonly mappings?: readonly FieldMapping[];
  /** A JSONL path (resumable), or a stream (stdout). */
  readonly output: string | Writable;
  /** Skip ids already in the output file (default true); false truncates it. */
  readonly resume?: boolean;
  /** Rows handled at once (default 1); lines are still written in input order. */
  readonly concurrency?: number;
  readonly schema: S;
  /** Key rows without an `id` (or `key`) by their place (default true); false where the schema has an id field of its own. */
  readonly autoId?: boolean;
  readonly idOf: (row: z.output<S>) => string;
  /** Its result is written as `{id, ...result}`; a throw is written as `{id, error}`. */
  readonly handle: (row: z.output<S>) => Promise<MappedRow> | MappedRow;
  /** Stops reading new rows; rows in flight finish and are written. */
  readonly signal?: AbortSignal;
  /**
   * Lines not to write, asked as each comes to be written: rows the run did not really handle
   * (the backend went down), which a rerun must handle instead of skipping. Counted in `unwritten`.
   */
  readonly withhold?: (line: MappedRow) => boolean;
  /** Each line once written, its `id` included: for a store. */
  readonly onWritten?: (line: MappedRow & { id: string }) => Promise<void>;
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
  /** Rows read but not written (`withhold`), outside `rows`: a rerun handles them. */
  readonly unwritten: number;
}

/**
 * The loop the `verify` and `judge` commands share: read rows from a dataset, validate each with a
 * schema, handle up to `concurrency` at once, and write one JSON line per row in input order. A
 * row that fails validation or handling, or repeats an earlier id, is written as `{id, error}`
 * (never dropped) and counted; ids already in the output file are skipped, so a rerun resumes.
 */
export async function mapJsonlRows<S extends z.ZodType>(
  options: MapJsonlRowsOptions<S>,
): Promise<JsonlRowsSummary> {
  const name = options.inputName ?? (typeof options.input === 'string' ? options.input : '<stdin>');
  const sink = await openJsonlResultSink<MappedRow>(options.output, options.resume ?? true);
  for (const warning of sink.warnings) options.onWarning?.(warning);

  let ok = 0;
  let failed = 0;
  let skipped = 0;
  let unwritten = 0;
  const write = async (line: MappedRow & { id: string }) => {
    if (options.withhold?.(line)) {
      unwritten++;
      return;
    }
    if ('error' in line) failed++;
    else ok++;
    await sink.write(line);
    await options.onWritten?.(line);
    options.onProgress?.({ rows: ok + failed, failed, skipped });
  };
  const pool = createOrderedPool<MappedRow & { id: string }>(options.concurrency ?? 1, write);

  let interrupted = false;
  for await (const row of checkedRows(options.input, {
    inputName: name,
    ...(options.split !== undefined && { split: options.split }),
    ...(options.mappings !== undefined && { mappings: options.mappings }),
    autoId: options.autoId ?? true,
    schema: options.schema,
    idOf: options.idOf,
    done: sink.done,
    ...(options.signal !== undefined && { signal: options.signal }),
  })) {
    if (row.kind === 'interrupted') {
      interrupted = true;
      break;
    }
    if (row.kind === 'done') {
      skipped++;
      options.onProgress?.({ rows: ok + failed, failed, skipped });
      continue;
    }
    if (row.kind === 'failed') {
      const { id, errors } = row;
      await pool.submit(async () => ({ id, error: errors.join('; ') }));
      continue;
    }
    const { id, value, origin } = row;
    await pool.submit(async () => {
      try {
        return { id, ...(await options.handle(value)) };
      } catch (error) {
        return { id, error: `${rowPlace(origin)}: ${errorMessage(error)}` };
      }
    });
  }
  await pool.drain();
  await sink.close();
  return { rows: ok + failed + skipped, ok, failed, skipped, interrupted, unwritten };
}
