import { Worker } from 'node:worker_threads';
import { workerEntry } from '../core/worker-entry.js';

/** Slot of the shared signal: 1 once the merger must do a last pass and stop. */
export const MERGER_STOP = 0;
/** How long the merger rests when the shards held nothing new, in milliseconds. */
export const MERGER_IDLE_MS = 20;

/** A merge pass this long says the merge is behind the answers (told at most every BEHIND_EVERY_MS). */
export const BEHIND_PASS_SECONDS = 2;
export const BEHIND_EVERY_MS = 60_000;

/** One merge pass: the rows it merged and how long it took. */
export interface MergePass {
  readonly merged: number;
  readonly seconds: number;
}

export type ShardMergerMessage =
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'behind'; readonly merged: number; readonly seconds: number }
  | { readonly type: 'merged'; readonly count: number }
  | {
      readonly type: 'done';
      /** The last pass: the backlog at stop. */
      readonly lastPass: MergePass;
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
  stop(): Promise<{ readonly merged: number; readonly lastPass: MergePass }>;
}

/** The least time between two starts of the merger's thread: one that dies at once is not restarted in a busy loop. */
const RESTART_GAP_MS = 1000;

export function startShardMerger(
  path: string,
  runId: string,
  /** Its errors, and now and then that it is behind. */
  onLog: (message: string) => void,
  options: { readonly behindPassSeconds?: number } = {},
): ShardMerger {
  const signal = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const entry = workerEntry(new URL('./sqlite-shard-merger-worker.js', import.meta.url));
  let merged = 0;
  let lastError: string | undefined;
  let done: Extract<ShardMergerMessage, { type: 'done' }> | undefined;
  let stopping = false;
  // The same message again within a minute is not repeated: a damaged shard is retried every
  // second, and a thread that dies at once is restarted every second.
  const said = new Map<string, number>();
  const say = (message: string) => {
    const at = performance.now();
    if (at - (said.get(message) ?? Number.NEGATIVE_INFINITY) < 60_000) return;
    said.set(message, at);
    onLog(message);
  };
  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });

  // A thread that dies while the server runs (out of memory, a fault) is replaced, as a copy is:
  // until the server stops, nothing else merges the shards into the store file.
  const start = () => {
    const started = performance.now();
    const worker = new Worker(entry.url, {
      workerData: {
        path,
        runId,
        signal,
        behindPassSeconds: options.behindPassSeconds ?? BEHIND_PASS_SECONDS,
      },
      execArgv: [...entry.execArgv],
    });
    worker.on('message', (message: ShardMergerMessage) => {
      if (message.type === 'merged') merged += message.count;
      else if (message.type === 'done') {
        done = message;
        merged += message.lastPass.merged;
      } else if (message.type === 'behind') {
        say(
          `the store file is behind the answers: one merge pass took ${message.seconds.toFixed(1)} s for ${message.merged} results (they are safe in the processes' shards; rewardkit runs and the inspector show them once merged)`,
        );
      } else {
        lastError = message.message;
        say(message.message);
      }
    });
    worker.on('error', (error) => {
      lastError = error.message;
      say(`the shard merger failed: ${error.message}`);
    });
    worker.once('exit', () => {
      if (stopping || done) {
        resolveStopped();
        return;
      }
      say('the shard merger stopped; starting another');
      // Also when stop() comes meanwhile: the new thread then makes the last pass, and ends.
      setTimeout(start, Math.max(0, RESTART_GAP_MS - (performance.now() - started)));
    });
  };
  start();
  return {
    async stop() {
      stopping = true;
      Atomics.store(signal, MERGER_STOP, 1);
      Atomics.notify(signal, MERGER_STOP);
      await stopped;
      if (!done) throw new Error(lastError ?? 'the shard merger stopped before its last pass');
      return { merged, lastPass: done.lastPass };
    },
  };
}
