import { parentPort } from 'node:worker_threads';
import type { CodeLimits, CodeTest, CodeTestResult } from './code-test.js';
import { runJavaScriptTests } from './javascript-runner.js';

/** One program's tests, sent to a QuickJS worker thread; numbered from `firstIndex`. */
export interface QuickJsJob {
  readonly id: number;
  readonly code: string;
  readonly tests: readonly CodeTest[];
  readonly firstIndex: number;
  readonly limits: CodeLimits;
  readonly strict: boolean;
}

/**
 * What a worker tells the pool as a job runs: that its first test starts (after any start-up),
 * then each test as it is decided, with the size of the heap. A later test starts as soon as the
 * one before it is reported: only small heaps are freed between tests, which takes milliseconds.
 */
export type QuickJsAnswer =
  | { readonly id: number; readonly kind: 'started'; readonly index: number }
  | {
      readonly id: number;
      readonly kind: 'finished';
      readonly result: CodeTestResult;
      readonly heapBytes: number;
    }
  | { readonly id: number; readonly kind: 'error'; readonly error: string };

// The worker thread's entry: QuickJS runs here so a spinning program blocks this thread, never
// the server's event loop.
parentPort?.on('message', async (job: QuickJsJob) => {
  const tell = (answer: QuickJsAnswer) => parentPort?.postMessage(answer);
  try {
    await runJavaScriptTests(
      job.code,
      job.tests,
      job.limits,
      job.strict,
      {
        started: (index) => tell({ id: job.id, kind: 'started', index }),
        finished: (result, heapBytes) => tell({ id: job.id, kind: 'finished', result, heapBytes }),
      },
      job.firstIndex,
    );
  } catch (error) {
    tell({ id: job.id, kind: 'error', error: (error as Error).message });
  }
});
