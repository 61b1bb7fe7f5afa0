import type { SourceStat } from './store.js';

/**
 * What a run's results are at one moment, in one string: how many there are and the sum of their
 * save positions (SQLite's rowid, PostgreSQL's seq), both read from an index. Results are never
 * deleted one by one, a new result adds to the count, and a result saved again takes a position
 * above its old one, so any save changes the version: an aggregate computed under a version is
 * still exact while the version reads the same.
 */
export type RunVersion = string;

/** The state document holding a finished run's per-source statistics, under the version they cover. */
export const sourceStatsKey = (runId: string): string => `source-stats/${runId}`;

export interface StoredSourceStats {
  readonly version: RunVersion;
  readonly sources: readonly SourceStat[];
}
