import { Worker } from 'node:worker_threads';
import { RewardKitError, workerEntry } from '../core/index.js';
import type { Store } from '../store/index.js';
import { isSqliteStore } from '../store/is-sqlite-store.js';
import type { SqliteResultRow } from '../store/sqlite-result-rows.js';

export type StoreWriterRequest =
  | {
      readonly type: 'save';
      readonly id: number;
      readonly runId: string;
      readonly rows: readonly SqliteResultRow[];
    }
  | { readonly type: 'close' };

export type StoreWriterReply = { readonly id: number; readonly error?: string };

/** What the thread writes: the store file itself, or a shard of it (`serve --processes`). */
export type StoreWriterTarget = 'store' | 'shard';

/**
 * Saves encoded rows on a thread with its own connection to the SQLite file (or, for a copy of
 * `serve --processes`, to its shard), so inserting runs beside the calling thread's own work:
 * writing `score`'s output and handing out chunks, or a server's parsing and answering. Batches are saved in the order given, so the store keeps
 * input order. At most `maxInFlight` batches wait: `save` resolves once the batch may be handed
 * over, and `flush` once everything is committed; a failed batch fails the next call.
 */
export interface StoreWriter {
  save(runId: string, rows: readonly SqliteResultRow[]): Promise<void>;
  /**
   * Saves a batch and resolves once it is committed (a server answers only then); the caller
   * bounds how many wait, so these are not counted against `maxInFlight`.
   */
  commit(runId: string, rows: readonly SqliteResultRow[]): Promise<void>;
  /** Whether the thread is gone (it failed or stopped): later calls fail, so a caller may save inline. */
  stopped(): boolean;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * REWARDKIT_STORE_WRITER=inline: SQLite rows are saved on the calling thread instead of a writer
 * thread (a machine with few cores, or one whose cores each run a server process already).
 */
export const storeWritesInline = () => process.env.REWARDKIT_STORE_WRITER === 'inline';

/**
 * The writer thread for a store where one can run — a SQLite file (an in-memory database has no
 * second connection) — unless writes stay inline ({@link storeWritesInline}); undefined otherwise.
 */
export function storeWriterFor(store: Store | undefined): StoreWriter | undefined {
  if (!store || !isSqliteStore(store) || store.path === ':memory:') return undefined;
  return storeWritesInline() ? undefined : startStoreWriter(store.path);
}

export function startStoreWriter(
  path: string,
  options: { readonly maxInFlight?: number; readonly target?: StoreWriterTarget } = {},
): StoreWriter {
  const { maxInFlight = 8, target = 'store' } = options;
  const entry = workerEntry(new URL('./store-writer-worker.js', import.meta.url));
  const worker = new Worker(entry.url, { workerData: { path, target }, execArgv: [...entry.execArgv] });
  const inFlight = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const committed: Promise<void>[] = [];
  let nextId = 0;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const pending of inFlight.values()) pending.reject(error);
    inFlight.clear();
  };
  worker.on('message', (reply: StoreWriterReply) => {
    const pending = inFlight.get(reply.id);
    inFlight.delete(reply.id);
    if (reply.error === undefined) pending?.resolve();
    else pending?.reject(new RewardKitError('RK_STORE', `Saving results to ${path} failed: ${reply.error}`));
  });
  worker.on('error', (error) =>
    fail(new RewardKitError('RK_STORE', `The store writer of ${path} failed: ${error.message}`)),
  );
  // Also when idle: a batch sent to a thread that is gone would never be answered.
  worker.on('exit', (code) =>
    fail(new RewardKitError('RK_STORE', `The store writer of ${path} stopped (exit code ${code})`)),
  );
  // Made now, so that closing a thread that has already exited (it failed, or close ran before)
  // does not wait for an exit that will never come again.
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  const settle = async () => {
    const batches = committed.splice(0);
    await Promise.all(batches);
  };
  const send = (runId: string, rows: readonly SqliteResultRow[]): Promise<void> => {
    const id = nextId++;
    const done = new Promise<void>((resolve, reject) => inFlight.set(id, { resolve, reject }));
    worker.postMessage({ type: 'save', id, runId, rows } satisfies StoreWriterRequest);
    return done;
  };
  return {
    async save(runId, rows) {
      if (failure) throw failure;
      if (rows.length === 0) return;
      const done = send(runId, rows);
      // Kept awaited, so a failure is raised by a later call rather than left unhandled.
      done.catch(() => {});
      committed.push(done);
      while (committed.length > maxInFlight) await committed.shift();
    },
    async commit(runId, rows) {
      if (failure) throw failure;
      if (rows.length > 0) await send(runId, rows);
    },
    stopped: () => failure !== undefined,
    flush: settle,
    async close() {
      try {
        await settle();
      } finally {
        worker.postMessage({ type: 'close' } satisfies StoreWriterRequest);
        await exited;
      }
    },
  };
}
