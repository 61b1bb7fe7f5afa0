import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../core/index.js';
import { type CodeLimits, type CodeTest, type CodeTestResult, DEFAULT_LIMITS } from './code-test.js';
import type { QuickJsAnswer, QuickJsJob } from './quickjs-worker.js';

/**
 * QuickJS on worker threads. QuickJS's interrupt handler ends a spinning program at its deadline,
 * but until then the thread running it is busy: on the main thread that froze every request of the
 * server (a `while(true){}` held `/healthz` for the whole run). Here each program runs on one of
 * `size` workers; a worker that overruns its budget by more than a grace period is terminated and
 * replaced, so even a program that escaped the interrupt handler cannot hold a worker.
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
  readonly job: QuickJsJob;
  readonly resolve: (results: CodeTestResult[]) => void;
  readonly reject: (error: Error) => void;
}

export function createQuickJsPool(size = Math.max(1, availableParallelism())): QuickJsPool {
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let nextId = 0;

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
    const { job } = pending;
    slot.busy = true;
    slot.worker.ref();
    const timeoutMs = job.limits.timeoutMs ?? DEFAULT_LIMITS.timeoutMs;
    const budgetMs = job.tests.length * (timeoutMs + 1000) + 5000;
    const finish = (settle: () => void, keep: boolean) => {
      clearTimeout(watchdog);
      slot.worker.off('message', onMessage);
      slot.worker.off('error', onError);
      slot.worker.off('exit', onExit);
      if (keep) {
        slot.busy = false;
        slot.worker.unref();
      } else {
        retire(slot);
      }
      settle();
      dispatch();
    };
    const onMessage = (answer: QuickJsAnswer) => {
      if (answer.id !== job.id) return;
      if ('error' in answer) finish(() => pending.reject(new Error(answer.error)), true);
      else finish(() => pending.resolve(answer.results), true);
    };
    const onError = (error: Error) => finish(() => pending.reject(error), false);
    const onExit = (code: number) =>
      finish(() => pending.reject(new Error(`the QuickJS worker exited with code ${code}`)), false);
    const watchdog = setTimeout(
      () =>
        finish(
          () =>
            pending.resolve(
              job.tests.map((_, index) => ({
                index,
                status: 'timeout',
                reason: `exceeded ${timeoutMs} ms; the worker running it was stopped`,
                elapsed_ms: budgetMs,
              })),
            ),
          false,
        ),
      budgetMs,
    );
    slot.worker.on('message', onMessage);
    slot.worker.on('error', onError);
    slot.worker.on('exit', onExit);
    slot.worker.postMessage(job);
  };

  return {
    run(code, tests, limits, strict) {
      return new Promise((resolve, reject) => {
        queue.push({ job: { id: nextId++, code, tests, limits, strict }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      for (const pending of queue.splice(0)) pending.reject(new Error('the QuickJS pool was closed'));
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}
