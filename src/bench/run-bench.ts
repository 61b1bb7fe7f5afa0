import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { errorMessage, issuesOf } from '../core/index.js';
import { describeIssues, readJsonlLines, rowId } from '../dataset/index.js';
import { createOrderedPool, readResumeState } from '../runner/index.js';
import type { AnyBenchDataset, BenchContext } from './bench-dataset.js';
import { type BenchRecord, BenchRecordSchema } from './bench-record.js';
import { type BenchReport, buildBenchReport } from './bench-report.js';
import { type DatasetRowsOptions, readDatasetRows } from './dataset-rows.js';

export interface RunBenchOptions extends DatasetRowsOptions {
  dataset: AnyBenchDataset;
  /** The benchmark: a `.parquet`, `.json` or `.jsonl` file, or a dataset folder. */
  input: string;
  /** Results JSONL, one line per item keyed by its id; a rerun skips ids already there. */
  output: string;
  context: BenchContext;
  /** Items judged at once (default 4). */
  concurrency?: number;
  /** Only the first N rows of the dataset. */
  limit?: number;
  /** Skip ids already in the output (default true); false starts the output afresh. */
  resume?: boolean;
  /** Stops reading new rows; items in flight finish and are written. */
  signal?: AbortSignal;
  /**
   * Records not to write: items the run did not really judge (the backend went down), which a
   * rerun must judge instead of skipping. Counted in `run.unwritten`.
   */
  withhold?: (record: BenchRecord) => boolean;
  /** Each record once written to the output, its judgments' call traces (`calls`) included: for a store. */
  onWritten?: (record: BenchRecord) => Promise<void>;
  onProgress?: (progress: { rows: number; failed: number; skipped: number }) => void;
  onWarning?: (message: string) => void;
}

export interface RunBenchResult {
  report: BenchReport;
  /**
   * Rows handled in this run, failed among them, skipped because already in the output, and read
   * but not written (`withhold`).
   */
  run: { rows: number; failed: number; skipped: number; unwritten: number };
  interrupted: boolean;
}

/**
 * Runs a benchmark: reads the dataset in its published format, validates each row (a bad row is
 * written as failed with file, row and field), judges items with bounded concurrency, streams one
 * line per item to the output in input order, and resumes by id. The report is then built from the
 * whole output file, so a resumed run reports on every item judged so far.
 */
export async function runBench(options: RunBenchOptions): Promise<RunBenchResult> {
  const { dataset, context } = options;
  const warn = options.onWarning ?? (() => {});
  const resume = options.resume ?? true;
  const done = new Set<string>();
  if (resume) {
    const state = await readResumeState(options.output);
    for (const id of state.done) done.add(id);
    state.warnings.forEach(warn);
  }
  const sink = createWriteStream(options.output, { flags: resume ? 'a' : 'w' });
  const counts = { rows: 0, failed: 0, skipped: 0 };
  let unwritten = 0;
  const write = async (record: BenchRecord) => {
    if (options.withhold?.(record)) {
      unwritten++;
      return;
    }
    counts.rows++;
    if (record.status === 'failed') counts.failed++;
    if (!sink.write(`${JSON.stringify(record)}\n`)) await once(sink, 'drain');
    await options.onWritten?.(record);
    options.onProgress?.({ ...counts });
  };
  const pool = createOrderedPool<BenchRecord>(options.concurrency ?? 4, write);
  const seen = new Set<string>();
  let read = 0;
  let interrupted = false;
  try {
    for await (const row of readDatasetRows(options.input, {
      ...(options.mappings !== undefined && { mappings: options.mappings }),
      ...(options.split !== undefined && { split: options.split }),
    })) {
      if (options.limit !== undefined && read >= options.limit) break;
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
      read++;
      const failed = (id: string, error: string): BenchRecord => ({
        id,
        dataset: dataset.name,
        status: 'failed',
        error,
      });
      const fallbackId = `row:${read}`;
      if (row.error !== undefined) {
        const id = fallbackId;
        if (done.has(id)) counts.skipped++;
        else await pool.submit(async () => failed(id, `${row.where}: ${row.error}`));
        continue;
      }
      const parsed = dataset.rowSchema.safeParse(row.value);
      const id: string = parsed.success
        ? parsed.data.id
        : (rowId(row.value) ?? rowId(renameId(row.value)) ?? fallbackId);
      if (done.has(id)) {
        counts.skipped++;
        options.onProgress?.({ ...counts });
        continue;
      }
      if (!parsed.success) {
        const errors = issuesOf(parsed.error, '(row)').map(
          (issue) => `${row.where}: field "${issue.path}": ${issue.message}`,
        );
        await pool.submit(async () => failed(id, errors.join('; ')));
        continue;
      }
      if (seen.has(id)) {
        await pool.submit(async () => failed(`${id}#row:${read}`, `${row.where}: duplicate id "${id}"`));
        continue;
      }
      seen.add(id);
      const item = parsed.data;
      await pool.submit(async () => {
        try {
          const judgments = await dataset.judge(item, context);
          return { id, dataset: dataset.name, status: 'ok', group: item.group, judgments };
        } catch (error) {
          return { ...failed(id, `${row.where}: ${errorMessage(error)}`), group: item.group };
        }
      });
    }
  } finally {
    await pool.drain();
    sink.end();
    await once(sink, 'finish');
  }
  return {
    report: buildBenchReport(dataset, await readRecords(options.output, dataset.name, warn)),
    run: { ...counts, unwritten },
    interrupted,
  };
}

/** JudgeBench keys its rows by `pair_id`: use it for a failed row's id too. */
function renameId(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const pairId = (value as Record<string, unknown>).pair_id;
  return pairId === undefined ? value : { id: pairId };
}

/** Every record of this dataset in the output, schema-checked (call traces are not kept in memory). */
async function readRecords(
  output: string,
  datasetName: string,
  warn: (m: string) => void,
): Promise<BenchRecord[]> {
  const records: BenchRecord[] = [];
  for await (const line of readJsonlLines(output)) {
    if (line.text === undefined) {
      warn(`${output}:${line.line}: ${line.error}; left out of the report`);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      warn(`${output}:${line.line}: not valid JSON; left out of the report`);
      continue;
    }
    const parsed = BenchRecordSchema.safeParse(value);
    if (!parsed.success) {
      warn(
        `${output}:${line.line}: ${describeIssues({ file: output, line: line.line }, parsed.error.issues)[0]}; left out of the report`,
      );
      continue;
    }
    if (parsed.data.dataset !== datasetName) {
      warn(
        `${output}:${line.line}: a "${parsed.data.dataset}" result in a "${datasetName}" run; left out of the report`,
      );
      continue;
    }
    records.push(parsed.data);
  }
  return records;
}
