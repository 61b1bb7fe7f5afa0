import { Worker } from 'node:worker_threads';
import { workerEntry } from '../core/worker-entry.js';

/** Slot of the shared signal: 1 once the merger must do a last pass and stop. */
export const MERGER_STOP = 0;
/** How long the merger rests when the shards held nothing new, in milliseconds. */
export const MERGER_IDLE_MS = 20;

/** A merge pass this long says the merge is behind the answers (told at most every BEHIND_EVERY_MS). */
export const BEHIND_PASS_SECONDS = 2;
export const BEHIND_EVERY_MS = 60_000;

export type ShardMergerMessage =
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'behind'; readonly merged: number; readonly seconds: number }
  | {
      readonly type: 'done';
      readonly merged: number;
      /** What the last pass merged, and how long it took: the backlog at stop. */
      readonly lastPass: { readonly merged: number; readonly seconds: number };
    };

/**
 * Merges a run's shards into the store's `results` from a thread with its own connection, over
 * and over while `serve --processes` runs, so that the run's rows show in `rewardkit runs` and
 * the inspector a moment after they were answered (longer while the copies append faster than
 * one writer can merge: the shards hold the rows durably meanwhile, and the last pass at
 * shutdown merges the rest).
 */
export interface ShardMerger {
  /**
   * Does a last pass (call it once no copy appends any more) and stops; resolves with the rows
   * merged in all and in the last pass (with its time), or rejects with its error.
   */
  stop(): Promise<{
    readonly merged: number;
    readonly lastPass: { readonly merged: number; readonly seconds: number };
  }>;
}

export function startShardMerger(
  path: string,
  runId: string,
  /** Its errors, and now and then that it is behind. */
  onLog: (message: string) => void,
  options: { readonly behindPassSeconds?: number } = {},
): ShardMerger {
  const signal = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const entry = workerEntry(new URL('./sqlite-shard-merger-worker.js', import.meta.url));
  const worker = new Worker(entry.url, {
    workerData: { path, runId, signal, behindPassSeconds: options.behindPassSeconds ?? BEHIND_PASS_SECONDS },
    execArgv: [...entry.execArgv],
  });
  let lastError: string | undefined;
  let done: Extract<ShardMergerMessage, { type: 'done' }> | undefined;
  worker.on('message', (message: ShardMergerMessage) => {
    if (message.type === 'done') done = message;
    else if (message.type === 'behind') {
      onLog(
        `the store file is behind the answers: one merge pass took ${message.seconds.toFixed(1)} s for ${message.merged} results (they are safe in the processes' shards; rewardkit runs and the inspector show them once merged)`,
      );
    } else {
      lastError = message.message;
      onLog(message.message);
    }
  });
  worker.on('error', (error) => {
    lastError = error.message;
    onLog(error.message);
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      Atomics.store(signal, MERGER_STOP, 1);
      Atomics.notify(signal, MERGER_STOP);
      await exited;
      if (!done) throw new Error(lastError ?? 'the shard merger stopped before its last pass');
      return { merged: done.merged, lastPass: done.lastPass };
    },
  };
}
