/**
 * `rewardkit/store`: where runs, results and cached judge answers live. `openSqliteStore` needs
 * better-sqlite3 and `openPostgresStore` needs pg; the root entry never loads this one, so the
 * verifiers work where neither is installed. Shards, row encodings and tallies stay inside.
 */
export { openPostgresStore, type PostgresStoreOptions } from './postgres-store.js';
export type {
  DataSourceBreakdown,
  DataSourceStat,
  RunComparison,
  RunTotals,
  SamplePage,
  SampleQuery,
  SampleRow,
  SampleText,
} from './run-views.js';
export { type LabelVerdict, type NewLabel, type SampleLabel, sampleLabelValue } from './sample-label.js';
export { openSqliteStore, type SqliteStore } from './sqlite-store.js';
export type { NewRun, RunRecord, SourceStat, Store } from './store.js';
