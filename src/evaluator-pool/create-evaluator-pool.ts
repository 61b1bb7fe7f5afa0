import { Worker } from 'node:worker_threads';
import { RewardKitError, type RewardResult, type Sample } from '../core/index.js';
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
  worker: Worker;
  outbox: { job: number; samples: readonly Sample[] }[];
  readonly jobs: Map<number, { resolve: (r: RewardResult[]) => void; reject: (e: unknown) => void }>;
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

  // A new worker takes a stopped one's place in the same thread slot, so the jobs sent to it
  // later and its replies meet in one map.
  const attach = (thread: Thread) => {
    const worker = new Worker(options.script ?? new URL('./evaluator-pool-worker.js', import.meta.url), {
      workerData: data,
    });
    thread.worker = worker;
    worker.on('message', (replies: PoolReply) => {
      for (const reply of replies) {
        const job = thread.jobs.get(reply.job);
        if (!job) continue;
        thread.jobs.delete(reply.job);
        if ('results' in reply) job.resolve(reply.results);
        else job.reject(new RewardKitError('RK_INTERNAL', reply.error));
      }
    });
    const fail = (error: Error) => {
      for (const job of thread.jobs.values()) job.reject(error);
      thread.jobs.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      fail(new RewardKitError('RK_INTERNAL', `an evaluator worker stopped (exit code ${code})`));
      if (!closed) attach(thread);
    });
    // Idle workers must not keep a finished CLI process alive.
    worker.unref();
  };
  const start = (): Thread => {
    const thread = { outbox: [], jobs: new Map() } as Omit<Thread, 'worker'> as Thread;
    attach(thread);
    return thread;
  };
  const threads = Array.from({ length: options.workers }, start);

  const evaluateGroup = (samples: readonly Sample[], evaluateOptions: { signal?: AbortSignal } = {}) => {
    if (closed) return Promise.reject(new RewardKitError('RK_INTERNAL', 'the evaluator pool is closed'));
    const thread = threads.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
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
        queueMicrotask(() => thread.worker.postMessage(request));
      };
      thread.jobs.set(job, {
        resolve: (results) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(results);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      thread.worker.ref();
      if (thread.outbox.length === 0) {
        queueMicrotask(() => {
          const request: PoolRequest = { type: 'evaluate', jobs: thread.outbox };
          thread.outbox = [];
          thread.worker.postMessage(request);
        });
      }
      thread.outbox.push({ job, samples });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    }).finally(() => {
      if (thread.jobs.size === 0) thread.worker.unref();
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
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
