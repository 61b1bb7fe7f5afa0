import { Worker } from 'node:worker_threads';
import { RewardKitError, type RewardResult } from '../core/index.js';
import { workerEntry } from '../core/typescript-source-loader.js';
import type { Store } from './store.js';

type SaveOptions = NonNullable<Parameters<Store['saveResults']>[2]>;

/** What the store's thread is asked: save one batch, or close. */
export type WriterRequest =
  | { type: 'save'; id: number; runId: string; results: readonly RewardResult[]; options: SaveOptions }
  | { type: 'close' };

export type WriterReply = { id: number; error?: { message: string; code: string | undefined } };

/**
 * The SQLite store with its result saving moved to a thread of its own: `saveResults` hands the
 * batch to the thread and resolves once the thread has committed it (so a server still answers a
 * request only after its results are on disk), while this thread goes on verifying and answering.
 * Inserting a row costs about as much as verifying it, so on a machine with a spare core this
 * takes the store off the path that answers requests. Everything else reads and writes through
 * the store as before (WAL: the two connections do not block each other's reads).
 */
export function withSqliteWriterThread(store: Store, path: string): Store {
  const entry = workerEntry('sqlite-writer-worker', import.meta.url);
  const worker = new Worker(entry.url, { execArgv: [...entry.execArgv], workerData: { path } });
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;
  // An idle writer must not keep the process alive; it is ref'd while a batch is in flight.
  worker.unref();
  const failAll = (error: Error) => {
    failure ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('message', (reply: WriterReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error === undefined) waiting.resolve();
    else
      waiting.reject(
        new RewardKitError('RK_STORE', `Saving results to ${path} failed: ${reply.error.message}`),
      );
  });
  worker.on('error', (error) =>
    failAll(new RewardKitError('RK_STORE', `The store writer of ${path} failed: ${error.message}`)),
  );
  worker.on('exit', (code) => {
    if (pending.size > 0)
      failAll(new RewardKitError('RK_STORE', `The store writer of ${path} exited (code ${code})`));
  });
  let closed: Promise<void> | undefined;
  return {
    ...store,
    saveResults(runId, results, options = {}) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ type: 'save', id, runId, results, options } satisfies WriterRequest);
      });
    },
    close() {
      closed ??= (async () => {
        // The thread answers the saves it was sent before it reads the close request.
        if (!failure) {
          const exited = new Promise((resolve) => worker.once('exit', resolve));
          worker.ref();
          worker.postMessage({ type: 'close' } satisfies WriterRequest);
          await exited;
        }
        await store.close();
      })();
      return closed;
    },
  };
}
