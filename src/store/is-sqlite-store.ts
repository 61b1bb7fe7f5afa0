import type { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

/**
 * Whether `store` is a SQLite store (shards, encoded batches). A file of its own so that the
 * runner can ask without loading the SQLite store itself, and with it better-sqlite3.
 */
export const isSqliteStore = (store: Store): store is SqliteStore =>
  store.kind === 'sqlite' && 'saveEncodedResults' in store;
