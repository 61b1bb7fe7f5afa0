import { ApiError } from './api-error.js';

/** A unit of work: one sample or one group, scored under the request's signal. */
export type Job<T> = (signal: AbortSignal) => Promise<T>;

export interface WorkQueueOptions {
  /** Jobs running at once. */
  readonly concurrency: number;
  /** Jobs allowed to wait for a worker beyond the free ones. */
  readonly maxQueue: number;
}

/** What a request does when its jobs do not fit: be refused with 429, or wait for a worker. */
export type WhenFull = 'refuse' | 'wait';

/**
 * Bounded work shared by every request: `concurrency` jobs run, up to `maxQueue` wait, and a
 * request whose jobs do not all fit is refused whole (429) before any of its work starts — a
 * trainer retries a whole batch, so half-admitting one would only waste work. A request with more
 * jobs than `maxQueue + concurrency` could never fit: it is refused with 413, not retried forever.
 */
export interface WorkQueue {
  /**
   * Queues every job or none; a job still waiting when `signal` aborts is dropped, rejecting with
   * its reason. With `whenFull: 'wait'` the jobs are queued past `maxQueue` instead of refused, so
   * the caller's signal (its deadline) alone bounds the wait.
   */
  submit<T>(jobs: readonly Job<T>[], signal: AbortSignal, whenFull?: WhenFull): Promise<T>[];
  /** Jobs waiting for a worker. */
  depth(): number;
  /** Jobs running. */
  inFlight(): number;
}

interface Waiting {
  readonly start: () => void;
  readonly drop: (reason: unknown) => void;
}

export function createWorkQueue(options: WorkQueueOptions): WorkQueue {
  const waiting: Waiting[] = [];
  let running = 0;
  // Mean job time, to tell a refused client when a retry may fit (Retry-After).
  let meanMs = 100;

  const next = () => {
    while (running < options.concurrency && waiting.length > 0) {
      (waiting.shift() as Waiting).start();
    }
  };

  const enqueue = <T>(job: Job<T>, signal: AbortSignal, batch: Set<Waiting>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        start: () => {
          batch.delete(entry);
          running++;
          const started = performance.now();
          job(signal)
            .then(resolve, reject)
            .finally(() => {
              meanMs = 0.9 * meanMs + 0.1 * (performance.now() - started);
              running--;
              next();
            });
        },
        drop: reject,
      };
      batch.add(entry);
      waiting.push(entry);
    });

  return {
    submit(jobs, signal, whenFull = 'refuse') {
      // More jobs than the queue holds even when empty: no retry can ever fit, so not 429.
      const capacity = options.maxQueue + options.concurrency;
      if (whenFull === 'refuse' && jobs.length > capacity) {
        throw new ApiError(
          413,
          'too_many_jobs',
          `this request needs ${jobs.length} jobs, more than the server can ever hold at once (${capacity}: --max-queue ${options.maxQueue} waiting plus --concurrency ${options.concurrency} running): split it into requests of at most ${capacity} jobs, or raise --max-queue`,
          { details: { jobs: jobs.length, capacity } },
        );
      }
      const free = Math.max(0, options.concurrency - running);
      if (whenFull === 'refuse' && waiting.length + jobs.length > options.maxQueue + free) {
        const retryAfter = Math.max(
          1,
          Math.ceil((meanMs * (waiting.length + jobs.length)) / options.concurrency / 1000),
        );
        throw new ApiError(
          429,
          'queue_full',
          `the work queue is full (${running} running, ${waiting.length} waiting, at most ${options.maxQueue} may wait); this request needs ${jobs.length} job(s): retry later`,
          { headers: { 'Retry-After': String(retryAfter) } },
        );
      }
      if (signal.aborted) return jobs.map(() => Promise.reject(signal.reason));
      // One listener per request, not per job: a request of a thousand samples is one abort.
      const batch = new Set<Waiting>();
      const promises = jobs.map((job) => enqueue(job, signal, batch));
      const onAbort = () => {
        const kept = waiting.filter((entry) => !batch.has(entry));
        waiting.length = 0;
        waiting.push(...kept);
        for (const entry of batch) entry.drop(signal.reason);
        batch.clear();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      // The listener goes when the last job of the request settles.
      Promise.allSettled(promises).then(() => signal.removeEventListener('abort', onAbort));
      next();
      return promises;
    },
    depth: () => waiting.length,
    inFlight: () => running,
  };
}
