import { Worker } from 'node:worker_threads';
import { workerEntry } from '../core/worker-entry.js';

/** Slots of the shared signal: commits made so far, and 1 once the checkpointer must stop. */
export const COMMITS = 0;
export const STOP = 1;
/** The least time between two checkpoints, in milliseconds. */
export const GAP_MS = 5;

/**
 * Copies a SQLite file's write-ahead log into the database from a thread of its own. SQLite's
 * automatic checkpoint runs inside the writer's COMMIT: with `synchronous = NORMAL` it copies
 * every page a second time and syncs both files (perf: a third of the SQLite time of a bulk
 * insert). Here a PASSIVE checkpoint follows commits on another core, at most one per GAP_MS, so
 * when the writer's own automatic checkpoint comes due (it stays on, at SQLite's 1,000 pages: it
 * lets the log start over, and it is the fallback if this thread is gone) little is left for it.
 */
export interface SqliteCheckpointer {
  /** Tells the thread a transaction has committed (one atomic add; no message). */
  committed(): void;
  /** Stops the thread and closes its connection. */
  stop(): Promise<void>;
}

export function startSqliteCheckpointer(path: string): SqliteCheckpointer {
  const signal = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const entry = workerEntry(new URL('./sqlite-checkpointer-worker.js', import.meta.url));
  const worker = new Worker(entry.url, {
    workerData: { path, signal },
    execArgv: [...entry.execArgv],
  });
  // A thread that only waits must not keep the process alive.
  worker.unref();
  let alive = true;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      alive = false;
      resolve();
    }),
  );
  // A checkpointer that fails leaves the checkpoints to the writer, as without one: nothing is lost.
  worker.on('error', () => {});
  return {
    committed() {
      if (!alive) return;
      Atomics.add(signal, COMMITS, 1);
      Atomics.notify(signal, COMMITS);
    },
    async stop() {
      if (!alive) return;
      // Waiting for its exit must hold the process open, or a caller's code after close() never runs.
      worker.ref();
      Atomics.store(signal, STOP, 1);
      Atomics.notify(signal, STOP);
      // Counted as well, so a thread that read the count during a checkpoint still wakes.
      Atomics.add(signal, COMMITS, 1);
      Atomics.notify(signal, COMMITS);
      await exited;
    },
  };
}
