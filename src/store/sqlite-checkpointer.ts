import { Worker } from 'node:worker_threads';
import { workerEntry } from '../core/worker-entry.js';

/** Slots of the shared signal: commits made so far, and 1 once the checkpointer must stop. */
export const COMMITS = 0;
export const STOP = 1;
/** The least time between two checkpoints, in milliseconds. */
export const GAP_MS = 5;
/**
 * The writer's automatic checkpoint while the thread runs, in pages of log (SQLite's default,
 * 1,000, again once it is gone). A log being written to is never fully copied by a PASSIVE
 * checkpoint, so it starts over only after the writer's own: at 1,000 pages that came every 20 or
 * so commits of 128 server rows, each copying what the thread had not yet and syncing both files
 * on the writer — a tenth of its time in a profile. At 10,000 (a log of up to 40 MB with 4 KB
 * pages) the writer spent 6.0-6.2 µs a row against 6.9-7.4 (bench notes in BENCHMARKS.md).
 */
export const WRITER_CHECKPOINT_PAGES = 10_000;
/** SQLite's default automatic checkpoint, in pages. */
export const SQLITE_CHECKPOINT_PAGES = 1000;

/**
 * Copies a SQLite file's write-ahead log into the database from a thread of its own. SQLite's
 * automatic checkpoint runs inside the writer's COMMIT: with `synchronous = NORMAL` it copies
 * every page a second time and syncs both files (perf: a third of the SQLite time of a bulk
 * insert). Here a PASSIVE checkpoint follows commits on another core, at most one per GAP_MS, so
 * when the writer's own automatic checkpoint comes due (it stays on, at WRITER_CHECKPOINT_PAGES
 * while this thread runs: it lets the log start over) little is left for it.
 */
export interface SqliteCheckpointer {
  /** Tells the thread a transaction has committed (one atomic add; no message). */
  committed(): void;
  /** False once the thread has exited (stopped, or failed): the writer must checkpoint again. */
  readonly running: boolean;
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
    get running() {
      return alive;
    },
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
