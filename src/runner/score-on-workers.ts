import { failedResult, type RewardResult } from '../core/index.js';
import { createRepeatedIdCheck, openUnparsedDataset, type UnparsedRecord } from '../dataset/index.js';
import { isSqliteStore } from '../store/is-sqlite-store.js';
import type { JsonlResultSink } from './jsonl-result-sink.js';
import { summarized } from './run-summary.js';
import type { ScoreFileOptions } from './score-file.js';
import type { ScoredRows, ScoreWorkerKeeps, SummaryKind } from './score-worker-messages.js';
import { startScoreWorkers } from './score-workers.js';
import { failedChunk, replaceScoredRows } from './scored-row.js';
import type { ScoringContext } from './scoring-context.js';
import { storeWriterFor } from './store-writer.js';

/** Records per chunk: enough that a message costs little next to scoring them. */
const CHUNK = 256;

export type ScoreWorkersOptions = NonNullable<ScoreFileOptions['workers']>;

/** A chunk's records and their rows as scored. */
interface Scored {
  readonly records: readonly UnparsedRecord[];
  readonly rows: ScoredRows;
}

/**
 * Scores the rows on worker threads that each parse, check, verify and serialize whole chunks, so
 * the main thread only reads the input, writes the lines that come back in input order and saves
 * them: what `score` spends besides verifying (JSON, the schema, the output and store encodings)
 * grows with the workers too. Resume, repeated ids and interruption behave as on one thread;
 * a worker that stops fails its chunk's rows with the reason, and is replaced.
 */
export async function scoreOnWorkers(
  context: ScoringContext,
  workers: ScoreWorkersOptions,
): Promise<boolean> {
  const { options, inputName, sink, store, run, accumulator } = context;
  const jsonl = 'writeLines' in sink ? (sink as JsonlResultSink<RewardResult>) : undefined;
  const sqlite = store && isSqliteStore(store) ? store : undefined;
  const keeps: ScoreWorkerKeeps = {
    line: jsonl !== undefined,
    sqliteRow: sqlite !== undefined,
    result: jsonl === undefined || (store !== undefined && sqlite === undefined),
    text: store !== undefined,
  };
  const done = sink.done;
  const pool = startScoreWorkers(workers.count, {
    spec: options.evaluator.spec,
    allowUnsafeCode: workers.allowUnsafeCode,
    traces: workers.traces,
    mappings: options.mappings,
    done: [...done],
    // `--concurrency` is the total, as without workers: each thread scores its share at once, so
    // code sandboxes are not multiplied by the thread count (their wall-clock limits would then
    // time out programs that merely waited for a core).
    concurrency: Math.max(1, Math.ceil((options.concurrency ?? 8) / workers.count)),
    keeps,
  });
  const repeated = createRepeatedIdCheck();
  // Inserting is the main thread's largest cost once workers read and verify: a file's rows are
  // saved by a thread of their own.
  const writer = run ? storeWriterFor(sqlite) : undefined;

  const write = async ({ records, rows }: Scored) => {
    const kinds = rows.summaries.map((json) => JSON.parse(json) as SummaryKind);
    // A repeated id is failed here, where every chunk's ids meet, under its place's key.
    const repeats = new Map<number, RewardResult>();
    let scored = 0;
    rows.ids.forEach((id, i) => {
      const kind = kinds[rows.summaryOf[i] as number];
      if (kind === undefined) {
        accumulator.skip();
        return;
      }
      const repeat = repeated(id, (records[rows.recordOf[i] as number] as UnparsedRecord).origin);
      if (repeat) {
        const failed = failedResult(repeat.id, repeat.errors);
        repeats.set(scored, failed);
        accumulator.add(summarized(failed));
      } else {
        accumulator.add({ ...kind, id });
      }
      scored++;
    });
    const { lines, sqliteRows, results, texts } =
      repeats.size > 0 ? replaceScoredRows(rows, repeats, keeps) : rows;
    if (jsonl) await jsonl.writeLines(lines);
    else for (const result of results) await sink.write(result);
    if (run && writer) await writer.save(run.id, sqliteRows);
    else if (run && sqlite) await sqlite.saveEncodedResults(run.id, sqliteRows);
    else if (run && store) await store.saveResults(run.id, results, { samples: texts });
    options.onProgress?.(accumulator.counts());
  };

  // Chunks in input order; at most two per worker wait, so reading never runs far ahead.
  const window: Promise<Scored>[] = [];
  const submit = async (records: readonly UnparsedRecord[]) => {
    while (window.length >= workers.count * 2) await write(await (window.shift() as Promise<Scored>));
    window.push(
      pool
        .score(records)
        .catch((error: Error) =>
          failedChunk(records, `internal error while scoring: ${error.message}`, {
            mappings: options.mappings,
            done,
            keeps,
          }),
        )
        .then((rows) => ({ records, rows })),
    );
  };

  let interrupted = false;
  try {
    let chunk: UnparsedRecord[] = [];
    const dataset = openUnparsedDataset(options.input, {
      inputName,
      ...(options.split !== undefined && { split: options.split }),
    });
    for await (const record of dataset.records) {
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
      chunk.push(record);
      if (chunk.length === CHUNK) {
        await submit(chunk);
        chunk = [];
      }
    }
    if (chunk.length > 0) await submit(chunk);
    while (window.length > 0) await write(await (window.shift() as Promise<Scored>));
    await writer?.flush();
  } finally {
    await pool.close();
    await writer?.close();
  }
  return interrupted;
}
