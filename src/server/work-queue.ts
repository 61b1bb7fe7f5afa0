import { ApiError } from './api-error.js';

/** A unit of work: one sample or one group, scored under the request's signal. */
export type Job<T> = (signal: AbortSignal) => Promise<T>;

export interface WorkQueueOptions {
  /** Jobs running at once. */
  readonly concurrency: number;
  /** Jobs allowed to wait for a worker beyond the free ones. */
  readonly maxQueue: number;
}

/**
 * Bounded work shared by every request: `concurrency` jobs run, up to `maxQueue` wait, and a
 * request whose jobs do not all fit is refused whole (429) before any of its work starts — a
 * trainer retries a whole batch, so half-admitting one would only waste work.
 */
export interface WorkQueue {
  /** Queues every job or none; a job still waiting when `signal` aborts is dropped, rejecting with its reason. */
  submit<T>(jobs: readonly Job<T>[], signal: AbortSignal): Promise<T>[];
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

  const enqueue = <T>(job: Job<T>, signal: AbortSignal): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        start: () => {
          signal.removeEventListener('abort', onAbort);
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
      const onAbort = () => {
        const at = waiting.indexOf(entry);
        if (at >= 0) waiting.splice(at, 1);
        reject(signal.reason);
      };
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      waiting.push(entry);
    });

  return {
    submit(jobs, signal) {
      const free = Math.max(0, options.concurrency - running);
      if (waiting.length + jobs.length > options.maxQueue + free) {
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
      const promises = jobs.map((job) => enqueue(job, signal));
      next();
      return promises;
    },
    depth: () => waiting.length,
    inFlight: () => running,
  };
}
