export { openPostgresStore, type PostgresStoreOptions } from './postgres-store.js';
export {
  type ChangedSample,
  type CostSeriesBucket,
  RESPONSE_PREVIEW_CHARS,
  type RewardHistogram,
  type RewardSeriesBucket,
  type RunComparison,
  type RunTotals,
  type SamplePage,
  type SampleQuery,
  type SampleRow,
  type SampleText,
} from './run-views.js';
export { createSourceStatsTally, mergeSourceStats } from './source-stats-tally.js';
export { specHash } from './spec-hash.js';
export { encodeSqliteResults, type SqliteResultRow } from './sqlite-result-rows.js';
export { openSqliteShard, runShardsFolder, type SqliteShard } from './sqlite-shard.js';
export { type ShardMerger, startShardMerger } from './sqlite-shard-merger.js';
export { isSqliteStore, openSqliteStore, type SqliteStore } from './sqlite-store.js';
export type { NewRun, RunRecord, SourceStat, Store } from './store.js';
