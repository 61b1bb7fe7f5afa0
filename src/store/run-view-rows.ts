import type { ChangedSample, RewardHistogram } from './run-views.js';

/** The row shapes of the inspector's comparison and histogram queries, mapped alike by both stores. */

/** One row of the comparison query, JSON columns still as text. */
export interface ComparedRow {
  sample_id: string;
  a_status: 'ok' | 'failed';
  a_reward: number | null;
  a_components: string;
  b_status: 'ok' | 'failed';
  b_reward: number | null;
  b_components: string;
}

export function changedSample(row: ComparedRow, readJson: (text: string) => unknown): ChangedSample {
  return {
    sample_id: row.sample_id,
    a: {
      status: row.a_status,
      reward: row.a_reward,
      components: readJson(row.a_components) as ChangedSample['a']['components'],
    },
    b: {
      status: row.b_status,
      reward: row.b_reward,
      components: readJson(row.b_components) as ChangedSample['b']['components'],
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
