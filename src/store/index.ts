export { openPostgresStore, type PostgresStoreOptions } from './postgres-store.js';
export { specHash } from './spec-hash.js';
export { openSqliteStore } from './sqlite-store.js';
export type { NewRun, RunRecord, SourceStat, Store } from './store.js';
