import type {
  ChangedSample,
  CostSeriesBucket,
  DataSourceBreakdown,
  RewardHistogram,
  RewardSeriesBucket,
} from './run-views.js';

/** The row shapes of the inspector's comparison and histogram queries, mapped alike by both stores. */

/** One row of the comparison query, JSON columns still as text. */
export interface ComparedRow {
  sample_id: string;
  a_status: 'ok' | 'failed';
  a_reward: number | null;
  a_components: string;
  a_excerpt: string | null;
  b_status: 'ok' | 'failed';
  b_reward: number | null;
  b_components: string;
  b_excerpt: string | null;
}

export function changedSample(row: ComparedRow, readJson: (text: string) => unknown): ChangedSample {
  return {
    sample_id: row.sample_id,
    a: {
      status: row.a_status,
      reward: row.a_reward,
      components: readJson(row.a_components) as ChangedSample['a']['components'],
      excerpt: row.a_excerpt,
    },
    b: {
      status: row.b_status,
      reward: row.b_reward,
      components: readJson(row.b_components) as ChangedSample['b']['components'],
      excerpt: row.b_excerpt,
    },
  };
}

/** One bin of the histogram query: series `k` (0 reward, 1 a source), its range and count. */
export interface HistogramBinRow {
  k: number;
  source: string;
  lo: number;
  hi: number;
  bin: number;
  n: number;
}

export function histogramsFromBins(rows: readonly HistogramBinRow[], bins: number): RewardHistogram[] {
  const series = new Map<string, { source: string | null; min: number; max: number; counts: number[] }>();
  for (const row of rows) {
    const key = `${row.k}:${row.source}`;
    let entry = series.get(key);
    if (!entry) {
      entry = {
        source: row.k === 0 ? null : row.source,
        min: row.lo,
        max: row.hi,
        counts: Array(bins).fill(0),
      };
      series.set(key, entry);
    }
    entry.counts[row.bin] = Number(row.n);
  }
  return [...series.values()];
}

/** One bucket of the reward-series query (counts may come back as float8 from PostgreSQL). */
export interface RewardSeriesRow {
  results: number;
  rewarded: number;
  mean_reward: number | null;
  min_reward: number | null;
  max_reward: number | null;
}

/** The buckets in order, each with the count of results saved before it. */
export function rewardSeriesFromRows(rows: readonly RewardSeriesRow[]): RewardSeriesBucket[] {
  let before = 0;
  return rows.map((row) => {
    const bucket = {
      before,
      results: Number(row.results),
      rewarded: Number(row.rewarded),
      mean_reward: row.mean_reward,
      min_reward: row.min_reward,
      max_reward: row.max_reward,
    };
    before += bucket.results;
    return bucket;
  });
}

/** One bucket of the cost-series query; sums are null where no result of the bucket called a model. */
export interface CostSeriesRow {
  results: number;
  first_saved_at: string | Date;
  last_saved_at: string | Date;
  first_call_at: string | null;
  last_call_at: string | null;
  calls: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cache_hits: number | null;
}

export function costSeriesFromRows(rows: readonly CostSeriesRow[]): CostSeriesBucket[] {
  const at = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);
  let before = 0;
  return rows.map((row) => {
    const bucket = {
      before,
      results: Number(row.results),
      first_saved_at: at(row.first_saved_at),
      last_saved_at: at(row.last_saved_at),
      first_call_at: row.first_call_at ?? null,
      last_call_at: row.last_call_at ?? null,
      calls: Number(row.calls ?? 0),
      prompt_tokens: Number(row.prompt_tokens ?? 0),
      completion_tokens: Number(row.completion_tokens ?? 0),
      cache_hits: Number(row.cache_hits ?? 0),
    };
    before += bucket.results;
    return bucket;
  });
}

/** A data source's counts as both stores read them (counts may come back as float8). */
export interface DataSourceRow {
  data_source: string | null;
  results: number;
  failed: number;
  mean_reward: number | null;
}

/** The breakdown from up to `limit + 1` grouped rows: the extra one only says there are more. */
export function dataSourceBreakdownFromRows(
  rows: readonly DataSourceRow[],
  limit: number,
): DataSourceBreakdown {
  return {
    data_sources: rows.slice(0, limit).map((row) => ({
      data_source: row.data_source,
      results: Number(row.results),
      failed: Number(row.failed),
      failure_rate: Number(row.failed) / Number(row.results),
      mean_reward: row.mean_reward === null ? null : Number(row.mean_reward),
    })),
    truncated: rows.length > limit,
  };
}
