import type { RewardResult } from '../core/index.js';
import type { SampleText } from '../store/index.js';

/**
 * Saves one transaction's worth of results, each with the request that produced it and the text
 * it judged (undefined where the server keeps none).
 */
export type SaveBatch = (
  results: readonly RewardResult[],
  requestIds: readonly string[],
  texts: readonly (SampleText | undefined)[],
) => Promise<void>;

export interface ResultWriterOptions {
  /** Most results in one transaction (default 4096); a larger backlog is written in several. */
  readonly maxBatch?: number;
  /**
   * Most results waiting for a transaction (default 65 536). A request whose results would pass it
   * waits for room first, so a store slower than the verifiers slows requests down instead of
   * growing memory.
   */
  readonly maxPending?: number;
}

/**
 * Write-behind saving for the server: results of the requests that finish while a transaction
 * runs (or within the same turn of the event loop) are saved together in the next one, so the
 * store costs one transaction per batch, not per request. `save` resolves once the transaction
 * holding its results has committed, and a request is answered only after that: a crash loses
 * no result whose request was acknowledged. A failed transaction rejects every save in it.
 */
export interface ResultWriter {
  save(results: readonly RewardResult[], requestId: string, texts?: readonly SampleText[]): Promise<void>;
  /** Waits until everything saved so far is committed (shutdown). */
  flush(): Promise<void>;
}

interface Pending {
  readonly results: readonly RewardResult[];
  readonly requestId: string;
  readonly texts: readonly SampleText[] | undefined;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export function createResultWriter(saveBatch: SaveBatch, options: ResultWriterOptions = {}): ResultWriter {
  const maxBatch = options.maxBatch ?? 4096;
  const maxPending = options.maxPending ?? 65_536;
  const queue: Pending[] = [];
  let queued = 0;
  let writing: Promise<void> | undefined;
  const roomWaiters: (() => void)[] = [];

  const take = (): Pending[] => {
    const batch: Pending[] = [];
    let size = 0;
    // A request's results stay in one transaction even when they alone exceed maxBatch.
    while (
      queue.length > 0 &&
      (batch.length === 0 || size + (queue[0] as Pending).results.length <= maxBatch)
    ) {
      const next = queue.shift() as Pending;
      batch.push(next);
      size += next.results.length;
    }
    queued -= size;
    while (roomWaiters.length > 0 && queued < maxPending) roomWaiters.shift()?.();
    return batch;
  };

  const writeAll = async () => {
    // Yield once so the requests finishing in this turn of the event loop join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (queue.length > 0) {
      const batch = take();
      try {
        await saveBatch(
          batch.flatMap((p) => p.results),
          batch.flatMap((p) => p.results.map(() => p.requestId)),
          batch.flatMap((p) => p.results.map((_, i) => p.texts?.[i])),
        );
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
  };

  const start = () => {
    writing ??= writeAll().finally(() => {
      writing = undefined;
      if (queue.length > 0) start();
    });
  };

  return {
    async save(results, requestId, texts) {
      if (results.length === 0) return;
      while (queued > 0 && queued + results.length > maxPending) {
        await new Promise<void>((resolve) => roomWaiters.push(resolve));
      }
      const done = new Promise<void>((resolve, reject) => {
        queue.push({ results, requestId, texts, resolve, reject });
      });
      queued += results.length;
      start();
      return done;
    },
    async flush() {
      while (writing) await writing;
    },
  };
}
