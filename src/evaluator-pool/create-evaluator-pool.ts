import {
  RewardKitError,
  type RewardResult,
  type Sample,
  startWorkerSlot,
  type WorkerSlot,
} from '../core/index.js';
import type { Evaluator, ResolvedSpec } from '../spec/index.js';
import type { PoolReply, PoolRequest, PoolWorkerData } from './pool-messages.js';

export interface EvaluatorPoolOptions {
  readonly spec: ResolvedSpec;
  /** Worker threads, one evaluator each (typically the number of cores). */
  readonly workers: number;
  /** Passed to each worker's code sandbox: run code without OS isolation when bubblewrap is missing. */
  readonly allowUnsafeCode?: boolean;
  /** Whether the spec compares rollouts within a group (the in-process evaluator's `needsGroups`). */
  readonly needsGroups: boolean;
  /** The worker's script (default: the evaluator worker beside this file); tests give one that stops on demand. */
  readonly script?: URL;
}

interface Thread {
  readonly slot: WorkerSlot<RewardResult[]>;
  /** Jobs submitted in this turn of the event loop, sent together in one message. */
  outbox: { job: number; samples: readonly Sample[] }[];
}

/**
 * An Evaluator whose verification runs in worker threads, so CPU-bound verifiers use every core
 * and the event loop stays free for HTTP, parsing and the store. Each job goes to the worker
 * with the fewest jobs in flight; an abort is forwarded to the worker running the job. A worker
 * that dies fails its jobs (the caller records them as failed) and is replaced.
 */
export function createEvaluatorPool(options: EvaluatorPoolOptions): Evaluator {
  if (!Number.isInteger(options.workers) || options.workers < 1) {
    throw new RewardKitError(
      'RK_INVALID_ARGUMENT',
      `workers must be a positive integer, got ${options.workers}`,
    );
  }
  const data: PoolWorkerData = { spec: options.spec, allowUnsafeCode: options.allowUnsafeCode ?? false };
  let closed = false;
  let nextJob = 0;

  // A stopped worker's jobs fail (the caller records them as failed); its replacement takes the
  // later ones. Idle workers must not keep a finished CLI process alive.
  const threads: Thread[] = Array.from({ length: options.workers }, () => ({
    slot: startWorkerSlot<PoolReply, RewardResult[]>({
      script: options.script ?? new URL('./evaluator-pool-worker.js', import.meta.url),
      workerData: data,
      replies: (replies) =>
        replies.map((reply) =>
          'results' in reply
            ? { id: reply.job, value: reply.results }
            : { id: reply.job, error: reply.error },
        ),
      stopped: 'an evaluator worker stopped',
      closed: () => closed,
      started: (worker) => worker.unref(),
    }),
    outbox: [],
  }));

  const evaluateGroup = (samples: readonly Sample[], evaluateOptions: { signal?: AbortSignal } = {}) => {
    if (closed) return Promise.reject(new RewardKitError('RK_INTERNAL', 'the evaluator pool is closed'));
    const thread = threads.reduce((a, b) => (b.slot.pending.size < a.slot.pending.size ? b : a));
    const { slot } = thread;
    const job = nextJob++;
    const signal = evaluateOptions.signal;
    return new Promise<RewardResult[]>((resolve, reject) => {
      const onAbort = () => {
        const request: PoolRequest = {
          type: 'abort',
          job,
          reason: String(signal?.reason?.message ?? signal?.reason),
        };
        // After the microtask that sends the job itself, so the worker knows the job it aborts.
        queueMicrotask(() => slot.worker.postMessage(request));
      };
      slot.pending.set(job, {
        resolve: (results) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(results);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      slot.worker.ref();
      if (thread.outbox.length === 0) {
        queueMicrotask(() => {
          const request: PoolRequest = { type: 'evaluate', jobs: thread.outbox };
          thread.outbox = [];
          slot.worker.postMessage(request);
        });
      }
      thread.outbox.push({ job, samples });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    }).finally(() => {
      if (slot.pending.size === 0) slot.worker.unref();
    });
  };

  return {
    spec: options.spec,
    needsGroups: options.needsGroups,
    async evaluate(sample, evaluateOptions) {
      return (await evaluateGroup([sample], evaluateOptions))[0] as RewardResult;
    },
    evaluateGroup,
    async close() {
      closed = true;
      await Promise.all(threads.map((t) => t.slot.worker.terminate()));
    },
  };
}
