import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../core/index.js';
import { type CodeLimits, type CodeTest, type CodeTestResult, DEFAULT_LIMITS } from './code-test.js';
import { QUICKJS_RETIRE_HEAP_BYTES } from './quickjs-heap.js';
import type { QuickJsAnswer, QuickJsJob } from './quickjs-worker.js';

/** How long past its time limit a test may go undecided before its worker is terminated. */
export const QUICKJS_OVERRUN_GRACE_MS = 500;
// A worker that has not started a job's first test by then (loading failed quietly) is stopped.
const STARTUP_MS = 30_000;

/**
 * QuickJS on worker threads. QuickJS's interrupt handler ends a spinning program at its deadline,
 * but until then the thread running it is busy: on the main thread that froze every request of the
 * server (a `while(true){}` held `/healthz` for the whole run). Here each program runs on one of
 * `size` workers, and each test is timed from when it starts: one that is not decided within
 * {@link QUICKJS_OVERRUN_GRACE_MS} of its time limit (a single `JSON.stringify` or garbage
 * collection of a huge heap never reaches the interrupt handler) is a `timeout`, its worker is
 * terminated and replaced, and the program's remaining tests go on in a fresh worker. A worker
 * whose heap grew past {@link QUICKJS_RETIRE_HEAP_BYTES} is terminated too, which gives its
 * memory back (a WebAssembly memory never shrinks) faster than freeing the heap would.
 */
export interface QuickJsPool {
  run(
    code: string,
    tests: readonly CodeTest[],
    limits: CodeLimits,
    strict: boolean,
  ): Promise<CodeTestResult[]>;
  close(): Promise<void>;
}

interface Slot {
  readonly worker: Worker;
  busy: boolean;
}

interface Pending {
  readonly code: string;
  readonly tests: readonly CodeTest[];
  readonly limits: CodeLimits;
  readonly strict: boolean;
  /** Results so far, in test order; a job resumed on a fresh worker starts after them. */
  readonly results: CodeTestResult[];
  readonly resolve: (results: CodeTestResult[]) => void;
  readonly reject: (error: Error) => void;
}

export function createQuickJsPool(size = Math.max(1, availableParallelism())): QuickJsPool {
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let nextId = 0;
  let closed = false;

  const spawnSlot = (): Slot => {
    const entry = workerEntry(new URL('./quickjs-worker.js', import.meta.url));
    const worker = new Worker(entry.url, { execArgv: [...entry.execArgv] });
    // An idle worker must not keep the process alive; a busy one is ref'd while its job runs.
    worker.unref();
    const slot: Slot = { worker, busy: false };
    slots.push(slot);
    return slot;
  };

  const retire = (slot: Slot) => {
    const at = slots.indexOf(slot);
    if (at !== -1) slots.splice(at, 1);
    void slot.worker.terminate();
  };

  const dispatch = () => {
    while (queue.length > 0) {
      const slot = slots.find((s) => !s.busy) ?? (slots.length < size ? spawnSlot() : undefined);
      if (!slot) return;
      start(slot, queue.shift() as Pending);
    }
  };

  const start = (slot: Slot, pending: Pending) => {
    const job: QuickJsJob = {
      id: nextId++,
      code: pending.code,
      tests: pending.tests.slice(pending.results.length),
      firstIndex: pending.results.length,
      limits: pending.limits,
      strict: pending.strict,
    };
    slot.busy = true;
    slot.worker.ref();
    const timeoutMs = pending.limits.timeoutMs ?? DEFAULT_LIMITS.timeoutMs;
    let running: { index: number; since: number } | undefined;
    let heard = false;
    let watchdog: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(watchdog);
      watchdog = setTimeout(overrun, ms);
    };
    const release = (keep: boolean) => {
      clearTimeout(watchdog);
      slot.worker.off('message', onMessage);
      slot.worker.off('error', onError);
      slot.worker.off('exit', onExit);
      if (closed) return;
      if (keep) {
        slot.busy = false;
        slot.worker.unref();
      } else {
        retire(slot);
      }
    };
    /** Test `index` starts now: it has its time limit and the grace period to be decided. */
    const begin = (index: number) => {
      running = { index, since: performance.now() };
      arm(timeoutMs + QUICKJS_OVERRUN_GRACE_MS);
    };
    const complete = () => pending.results.length === pending.tests.length;
    /** The job's results when it has them all; else it goes back to the queue's front, to resume in a fresh worker. */
    const settleOrResume = () => {
      if (complete()) pending.resolve(pending.results);
      else queue.unshift(pending);
      dispatch();
    };
    const onMessage = (answer: QuickJsAnswer) => {
      if (answer.id !== job.id) return;
      heard = true;
      switch (answer.kind) {
        case 'started':
          begin(answer.index);
          return;
        case 'finished': {
          pending.results.push(answer.result);
          // A grown heap goes with its worker (terminating frees it at once); the program's
          // remaining tests resume in a fresh worker.
          const grown = answer.heapBytes > QUICKJS_RETIRE_HEAP_BYTES;
          if (complete() || grown) {
            running = undefined;
            // The worker may still free the test's memory; a job sent meanwhile waits for it.
            release(!grown);
            settleOrResume();
            return;
          }
          begin(answer.result.index + 1);
          return;
        }
        case 'error':
          release(true);
          pending.reject(new Error(answer.error));
          dispatch();
      }
    };
    const overrun = () => {
      release(false);
      if (!heard) {
        pending.reject(new Error(`the QuickJS worker did not start within ${STARTUP_MS} ms`));
        dispatch();
        return;
      }
      if (running) {
        pending.results.push({
          index: running.index,
          status: 'timeout',
          reason: `exceeded ${timeoutMs} ms; the worker running it was stopped`,
          elapsed_ms: performance.now() - running.since,
        });
      }
      settleOrResume();
    };
    const onError = (error: Error) => {
      release(false);
      if (!complete()) pending.reject(error);
      dispatch();
    };
    const onExit = (code: number) => onError(new Error(`the QuickJS worker exited with code ${code}`));
    arm(STARTUP_MS);
    slot.worker.on('message', onMessage);
    slot.worker.on('error', onError);
    slot.worker.on('exit', onExit);
    slot.worker.postMessage(job);
  };

  return {
    run(code, tests, limits, strict) {
      if (closed) return Promise.reject(new Error('the QuickJS pool was closed'));
      if (tests.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        queue.push({ code, tests, limits, strict, results: [], resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('the QuickJS pool was closed'));
      // Ref'd until they are gone: an unref'd worker's terminate() does not keep the process
      // alive, and a caller awaiting close() would see the process exit under it.
      await Promise.all(
        slots.splice(0).map((slot) => {
          slot.worker.ref();
          return slot.worker.terminate();
        }),
      );
    },
  };
}
