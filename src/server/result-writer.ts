import type { RewardResult } from '../core/index.js';
import type { SampleText } from '../store/index.js';
import { createWriteBehind, type WriteBehindOptions } from './write-behind.js';

/**
 * Saves one transaction's worth of results, each with the request that produced it and the text
 * it judged (undefined where the server keeps none).
 */
export type SaveBatch = (
  results: readonly RewardResult[],
  requestIds: readonly string[],
  texts: readonly (SampleText | undefined)[],
) => Promise<void>;

export type ResultWriterOptions = WriteBehindOptions;

/**
 * The server's write-behind saving of results (see `createWriteBehind`): a request is answered
 * only after the transaction holding its results has committed.
 */
export interface ResultWriter {
  save(results: readonly RewardResult[], requestId: string, texts?: readonly SampleText[]): Promise<void>;
  /** Waits until everything saved so far is committed (shutdown). */
  flush(): Promise<void>;
}

interface Saved {
  readonly result: RewardResult;
  readonly requestId: string;
  readonly text: SampleText | undefined;
}

export function createResultWriter(saveBatch: SaveBatch, options: ResultWriterOptions = {}): ResultWriter {
  const behind = createWriteBehind<Saved>(
    (saved) =>
      saveBatch(
        saved.map((s) => s.result),
        saved.map((s) => s.requestId),
        saved.map((s) => s.text),
      ),
    options,
  );
  return {
    save: (results, requestId, texts) =>
      behind.save(results.map((result, i) => ({ result, requestId, text: texts?.[i] }))),
    flush: behind.flush,
  };
}
