import { describe, expect, test } from 'vitest';
import { ApiError } from './api-error.js';
import { createWorkQueue } from './work-queue.js';

const deferred = () => {
  let resolve!: (v: string) => void;
  const promise = new Promise<string>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('createWorkQueue', () => {
  test('should run at most `concurrency` jobs and start waiting ones as workers free up', async () => {
    const queue = createWorkQueue({ concurrency: 2, maxQueue: 5 });
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const signal = new AbortController().signal;
    const done = queue.submit(
      gates.map((gate, i) => async () => {
        started.push(i);
        return gate.promise;
      }),
      signal,
    );
    expect(started).toEqual([0, 1]);
    expect(queue.inFlight()).toBe(2);
    expect(queue.depth()).toBe(1);
    gates[0]?.resolve('a');
    await done[0];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[1]?.resolve('b');
    gates[2]?.resolve('c');
    expect(await Promise.all(done)).toEqual(['a', 'b', 'c']);
    expect(queue.inFlight()).toBe(0);
  });

  test('should refuse a request whose jobs do not all fit, with 429 and Retry-After, and queue none of them', () => {
    const queue = createWorkQueue({ concurrency: 1, maxQueue: 1 });
    const signal = new AbortController().signal;
    const hold = deferred();
    queue.submit([() => hold.promise, () => hold.promise], signal);
    let caught: unknown;
    try {
      queue.submit([() => hold.promise], signal);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).status).toBe(429);
    expect(Number((caught as ApiError).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(queue.depth()).toBe(1);
    hold.resolve('x');
  });

  test('should refuse a request larger than the queue can ever hold with a non-retryable 413 naming the flags', () => {
    const queue = createWorkQueue({ concurrency: 8, maxQueue: 1024 });
    const signal = new AbortController().signal;
    const jobs = Array.from({ length: 1100 }, () => async () => 'x');
    let caught: unknown;
    try {
      queue.submit(jobs, signal);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    const error = caught as ApiError;
    expect([error.status, error.apiCode, error.isRetryable]).toEqual([413, 'too_many_jobs', false]);
    expect(error.headers['Retry-After']).toBeUndefined();
    expect(error.message).toMatch(/1100 jobs.*1032.*--max-queue 1024.*--concurrency 8/);
    expect(error.details).toEqual({ jobs: 1100, capacity: 1032 });
    expect(queue.depth()).toBe(0);
    // Exactly the capacity fits an idle queue.
    expect(queue.submit(jobs.slice(0, 1032), signal)).toHaveLength(1032);
  });

  test('should drop a waiting job when its request aborts, without touching other requests', async () => {
    const queue = createWorkQueue({ concurrency: 1, maxQueue: 4 });
    const hold = deferred();
    const first = queue.submit([() => hold.promise], new AbortController().signal);
    const controller = new AbortController();
    const ran: string[] = [];
    const [aborted] = queue.submit(
      [
        async () => {
          ran.push('aborted one');
          return 'no';
        },
      ],
      controller.signal,
    );
    const [other] = queue.submit([async () => 'other'], new AbortController().signal);
    controller.abort(new Error('client went away'));
    await expect(aborted).rejects.toThrow('client went away');
    expect(queue.depth()).toBe(1);
    hold.resolve('first');
    expect(await first[0]).toBe('first');
    expect(await other).toBe('other');
    expect(ran).toEqual([]);
  });
});
