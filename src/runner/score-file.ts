import type { Readable, Writable } from 'node:stream';
import {
  errorMessage,
  failedResult,
  type RewardResult,
  type Sample,
  SampleRowSchema,
  sampleText,
} from '../core/index.js';
import { checkedRows, type FieldMapping, rowPlace } from '../dataset/index.js';
import type { Evaluator } from '../spec/index.js';
import type { RunRecord, SampleText, Store } from '../store/index.js';
import { isSqliteStore } from '../store/is-sqlite-store.js';
import { specHash } from '../store/spec-hash.js';
import { encodeSqliteResults, type SqliteResultRow } from '../store/sqlite-result-rows.js';
import { defaultRouteWarning } from './default-route-warning.js';
import { finishCheckedRun } from './finish-checked-run.js';
import { openJsonlResultSink } from './jsonl-result-sink.js';
import { createOrderedPool } from './ordered-pool.js';
import { lockOutput } from './output-lock.js';
import { openParquetResultSink } from './parquet-result-sink.js';
import { isParquetPath } from './result-sink.js';
import { createSummaryAccumulator, type RunSummary } from './run-summary.js';
import { type ScoreWorkersOptions, scoreOnWorkers } from './score-on-workers.js';
import { checkScorePaths } from './score-paths.js';
import type { ScoringContext } from './scoring-context.js';
import { storeOutputRows } from './store-output-rows.js';
import { type StoreWriter, storeWriterFor } from './store-writer.js';

export interface ScoreFileOptions {
  readonly evaluator: Evaluator;
  /** Name of the spec (preset name or file path), recorded with the run. */
  readonly specName: string;
  /** A dataset path (JSONL, JSON array, Parquet, Hugging Face folder), or a JSONL stream (stdin) with `inputName` for messages. */
  readonly input: string | Readable;
  readonly inputName?: string;
  /** The split to read from a dataset folder with several. */
  readonly split?: string;
  /** Where the Sample fields come from in the dataset's rows (`--map`, `--format`). */
  readonly mappings?: readonly FieldMapping[];
  /** A JSONL or `.parquet` path (resumable), or a stream (stdout) for JSONL. */
  readonly output: string | Writable;
  readonly store?: Store;
  /** Samples scored at once (default 8). */
  readonly concurrency?: number;
  /** Skip ids already in the output file (default true); false truncates it. */
  readonly resume?: boolean;
  /** Stops reading new rows; rows in flight finish and are written. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: { rows: number; failed: number; skipped: number }) => void;
  readonly onWarning?: (message: string) => void;
  /**
   * Score on this many worker threads, each reading, verifying and serializing chunks of rows
   * (`--workers`), for specs that neither call judge models nor compare a group's rollouts (those
   * are scored on `evaluator`, which must then be the in-process one).
   */
  readonly workers?: { readonly count: number; readonly allowUnsafeCode: boolean; readonly traces: boolean };
}

export interface ScoreFileResult {
  readonly summary: RunSummary;
  readonly run: RunRecord | undefined;
  readonly interrupted: boolean;
}

/**
 * Results saved together. Rows waiting for their batch outlive a young-generation collection or
 * two and are moved to the old generation as garbage: with 256 a 100,000-row run peaked at about
 * 330 MB, with 64 at 260 MB (and ran 10% faster); a transaction of 64 rows still costs little.
 */
const STORE_BATCH = 64;

/**
 * Scores a dataset of samples into JSONL or Parquet RewardResults, streaming in bounded memory
 * with bounded concurrency, in input order. Malformed rows are recorded as failed results with
 * file, line and field; rows whose id is already in the output are skipped (resume); every result
 * also goes to the store when one is given.
 */
export async function scoreFile(options: ScoreFileOptions): Promise<ScoreFileResult> {
  await checkScorePaths({
    ...(typeof options.input === 'string' && { input: options.input }),
    ...(typeof options.output === 'string' && { output: options.output }),
    ...(options.split !== undefined && { split: options.split }),
  });
  const release = typeof options.output === 'string' ? await lockOutput(options.output) : undefined;
  try {
    return await scoreUnderLock(options);
  } finally {
    await release?.();
  }
}

async function scoreUnderLock(options: ScoreFileOptions): Promise<ScoreFileResult> {
  const started = performance.now();
  const inputName = options.inputName ?? (typeof options.input === 'string' ? options.input : '<stdin>');
  const resume = options.resume ?? true;
  const warn = options.onWarning ?? (() => {});
  const accumulator = createSummaryAccumulator({
    storedStats: true,
    onDefaultRoute: (dataSource) => warn(defaultRouteWarning(options.evaluator.spec, dataSource)),
  });

  const sink = isParquetPath(options.output)
    ? await openParquetResultSink(options.output, resume)
    : await openJsonlResultSink(options.output, resume);
  const done = sink.done;
  sink.warnings.forEach(warn);

  const store = options.store;
  const specJson = options.evaluator.spec;
  let run: RunRecord | undefined;
  let resumed = false;
  if (store) {
    const outputPath = typeof options.output === 'string' ? options.output : undefined;
    const resumable =
      resume && outputPath !== undefined && done.size > 0
        ? await store.findResumableRun({
            spec_hash: specHash(specJson),
            input: inputName,
            output: outputPath,
          })
        : undefined;
    resumed = resumable !== undefined;
    run =
      resumable ??
      (await store.createRun({
        spec_name: options.specName,
        spec: specJson,
        input: inputName,
        ...(outputPath !== undefined && { output: outputPath }),
      }));
  }
  // Rows a killed run wrote to the output before their store batch committed are skipped below
  // like every row of the output: they are stored from the output's lines first.
  const reconciled =
    store && run && typeof options.output === 'string' && done.size > 0
      ? await storeOutputRows({ store, runId: run.id, output: options.output, done, warn })
      : 0;
  const context: ScoringContext = { options, inputName, sink, store, run, accumulator, warn };
  const onWorkers =
    options.workers !== undefined && options.workers.count > 0 && !options.evaluator.needsGroups;
  const interrupted = onWorkers
    ? await scoreOnWorkers(context, options.workers as ScoreWorkersOptions)
    : await scoreOnEvaluator(context);
  await sink.close();
  const summary = accumulator.summary(performance.now() - started);
  if (store && run) {
    // A fresh run that took no rows from its output saved every row here: the tally covers it.
    const sources = resumed || reconciled > 0 ? undefined : accumulator.storedSourceStats();
    await finishCheckedRun(store, run.id, {
      summary,
      interrupted,
      outputRows: done.size + summary.rows,
      outputName: typeof options.output === 'string' ? options.output : '<stdout>',
      sources,
    });
  }
  return { summary, run, interrupted };
}

/** Scores the rows on the evaluator given (the main thread, or its pool of worker threads). */
async function scoreOnEvaluator(context: ScoringContext): Promise<boolean> {
  const { options, inputName, sink, store, run, accumulator, warn } = context;
  const done = sink.done;
  // The store keeps the text each result judged next to it, for the inspector (`rewardkit view`).
  // A SQLite store's rows are encoded as they come: a batch of strings survives into the old
  // generation more cheaply than the result objects would, and lets a thread save them.
  const sqlite = store && isSqliteStore(store) ? store : undefined;
  let batch: { result: RewardResult; sample: SampleText | undefined }[] = [];
  let encoded: SqliteResultRow[] = [];
  // A SQLite file's rows are saved on a thread of their own from the first batch that fills
  // before the input ends, so inserting runs beside scoring; an input smaller than a batch is
  // saved here and starts no thread.
  let writer: StoreWriter | undefined;
  const flush = async (last: boolean) => {
    if (!run) return;
    if (sqlite && encoded.length > 0) {
      const rows = encoded;
      encoded = [];
      writer ??= last ? undefined : storeWriterFor(sqlite);
      if (writer) await writer.save(run.id, rows);
      else await sqlite.saveEncodedResults(run.id, rows);
    } else if (store && batch.length > 0) {
      const toSave = batch;
      batch = [];
      await store.saveResults(
        run.id,
        toSave.map((entry) => entry.result),
        { samples: toSave.map((entry) => entry.sample) },
      );
    }
  };

  const write = async (result: RewardResult, sample: Sample | undefined) => {
    accumulator.add(result);
    await sink.write(result);
    const text = sample && sampleText(sample);
    if (sqlite) encoded.push(...encodeSqliteResults([result], { samples: [text] }));
    else if (store) batch.push({ result, sample: text });
    if (encoded.length + batch.length >= STORE_BATCH) await flush(false);
    options.onProgress?.(accumulator.counts());
  };
  type Scored = { result: RewardResult; sample?: Sample };
  const pool = createOrderedPool<Scored[]>(options.concurrency ?? 8, async (scored) => {
    for (const { result, sample } of scored) await write(result, sample);
  });
  const failed = (result: RewardResult) => pool.submit(async () => [{ result }]);
  const evaluateGroup = (samples: readonly Sample[]) =>
    pool.submit(async (): Promise<Scored[]> => {
      let results: readonly RewardResult[];
      try {
        results = await options.evaluator.evaluateGroup(samples);
      } catch (error) {
        // The evaluator records source failures itself; this catches a bug, and still loses no row.
        results = samples.map((sample) =>
          failedResult(sample.id, [`internal error while scoring: ${errorMessage(error)}`]),
        );
      }
      const byId = new Map(samples.map((sample) => [sample.id, sample]));
      return results.map((result) => ({
        result,
        ...(byId.has(result.id) && { sample: byId.get(result.id) }),
      }));
    });

  // Specs that compare rollouts within a group score consecutive rows sharing a `group` together.
  let interrupted = false;
  let pending: { group: string; samples: Sample[] } | undefined;
  const closedGroups = new Set<string>();
  const flushGroup = async () => {
    if (!pending) return;
    const { group, samples } = pending;
    pending = undefined;
    closedGroups.add(group);
    await evaluateGroup(samples);
  };

  try {
    for await (const row of checkedRows(options.input, {
      inputName,
      ...(options.split !== undefined && { split: options.split }),
      ...(options.mappings !== undefined && { mappings: options.mappings }),
      autoId: true,
      schema: SampleRowSchema,
      idOf: (sample) => sample.id,
      done,
      ...(options.signal !== undefined && { signal: options.signal }),
    })) {
      if (row.kind === 'interrupted') {
        interrupted = true;
        break;
      }
      if (row.kind === 'done') {
        accumulator.skip();
        continue;
      }
      if (row.kind === 'failed') {
        await failed(failedResult(row.id, row.errors));
        continue;
      }
      const { origin } = row;
      const sample = row.value;
      if (!options.evaluator.needsGroups || sample.group === undefined) {
        await evaluateGroup([sample]);
        continue;
      }
      if (pending?.group === sample.group) {
        pending.samples.push(sample);
        continue;
      }
      await flushGroup();
      if (closedGroups.has(sample.group)) {
        warn(
          `${rowPlace(origin)}: group "${sample.group}" continues after other rows; its rows are compared only with the consecutive rows they sit among`,
        );
      }
      pending = { group: sample.group, samples: [sample] };
    }
    await flushGroup();
    await pool.drain();
    await flush(true);
    await writer?.flush();
  } finally {
    await writer?.close();
  }
  return interrupted;
}
