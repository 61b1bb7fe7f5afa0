import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage, failedResult, type RewardResult, type Sample } from '../core/index.js';
import type { RecordRow } from '../dataset/index.js';
import { createEvaluator } from '../spec/index.js';
import { createCodeSandbox } from '../verify/code/index.js';
import type { ScoreChunk, ScoredChunk, ScoredRows, ScoreWorkerData } from './score-worker-messages.js';
import { keptText, sampleRows, scoredRowsBuilder } from './scored-row.js';

// One scoring worker of `score --workers`: it reads, checks, verifies and serializes its chunks,
// so the main thread only splits the input, writes what comes back and saves it.
const data = workerData as ScoreWorkerData;
const evaluator = createEvaluator(data.spec, {
  codeSandbox: () => createCodeSandbox({ allowUnsafeLocal: data.allowUnsafeCode }),
  traces: data.traces,
});
const done = new Set(data.done);
const { keeps } = data;
const port = parentPort;
if (!port) throw new Error('score-worker runs only as a worker thread');

type Row = RecordRow<Sample>;

async function evaluate(row: Row): Promise<RewardResult> {
  if (row.kind === 'failed') return failedResult(row.id, row.errors);
  try {
    return await evaluator.evaluate(row.value);
  } catch (error) {
    // The evaluator records source failures itself; this catches a bug, and still loses no row.
    return failedResult(row.id, [`internal error while scoring: ${errorMessage(error)}`]);
  }
}

async function scoreChunk({ records }: ScoreChunk): Promise<ScoredRows> {
  const rows: { row: Row; record: number }[] = [];
  records.forEach((record, index) => {
    for (const row of sampleRows(record, data.mappings)) rows.push({ row, record: index });
  });
  const results: (RewardResult | undefined)[] = new Array(rows.length);
  // At most `concurrency` samples at once: this thread's share of `--concurrency`.
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const i = next++;
      const { row } = rows[i] as (typeof rows)[number];
      if (!done.has(row.id)) results[i] = await evaluate(row);
    }
  };
  await Promise.all(Array.from({ length: Math.min(data.concurrency, rows.length) }, lane));
  const builder = scoredRowsBuilder(keeps);
  rows.forEach(({ row, record }, i) => {
    const result = results[i];
    if (result === undefined) builder.done(row.id, record);
    else builder.scored(result, keptText(row, keeps), record);
  });
  return builder.finish();
}

// One chunk at a time: the main thread keeps a second chunk waiting here so this thread never
// idles, and scoring both at once would run twice `concurrency` samples (code sandboxes) at once.
let previous = Promise.resolve();
port.on('message', (chunk: ScoreChunk) => {
  previous = previous.then(() =>
    scoreChunk(chunk).then(
      (rows) => port.postMessage({ chunk: chunk.chunk, rows } satisfies ScoredChunk),
      (error: unknown) =>
        port.postMessage({ chunk: chunk.chunk, error: errorMessage(error) } satisfies ScoredChunk),
    ),
  );
});
