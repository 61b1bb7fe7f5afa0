import type { LineChartInput } from './line-chart-layout.js';

/**
 * A run's series as charts, for the run report and the web app's run page alike. The bucket shapes
 * are the store's (`RewardSeriesBucket`, `CostSeriesBucket`), restated here so that the web app can
 * use this file without the store's imports.
 */

export interface RewardBucket {
  readonly before: number;
  readonly results: number;
  readonly mean_reward: number | null;
  readonly min_reward: number | null;
  readonly max_reward: number | null;
}

export interface CostBucket {
  readonly before: number;
  readonly results: number;
  readonly first_saved_at: string;
  readonly last_saved_at: string;
  /** Absent in rows from before call times were recorded (and in older reports' inputs). */
  readonly first_call_at?: string | null;
  readonly last_call_at?: string | null;
  readonly calls: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
}

/**
 * Mean reward per bucket of results in saved order (for a `serve` run, reward over requests), the
 * bucket's min to max as a band; each point sits at the bucket's last result. Buckets of failed
 * results only (no reward) are left out.
 */
export function rewardOverResultsChart(buckets: readonly RewardBucket[]): LineChartInput {
  const rewarded = buckets.filter((b) => b.mean_reward !== null);
  return {
    series: [
      {
        name: 'mean reward',
        points: rewarded.map((b) => ({ x: b.before + b.results, y: b.mean_reward as number })),
      },
    ],
    band: rewarded.map((b) => ({
      x: b.before + b.results,
      low: b.min_reward ?? (b.mean_reward as number),
      high: b.max_reward ?? (b.mean_reward as number),
    })),
    xLabel: 'results saved',
    yLabel: 'reward',
  };
}

const TIME_UNITS = [
  { ms: 3_600_000, name: 'h' },
  { ms: 60_000, name: 'min' },
  { ms: 1000, name: 's' },
] as const;

/**
 * Whether the buckets' save times tell them apart: each bucket saved after the one before. A run
 * whose results were saved together (a judge run of a few samples writes them in one batch) has one
 * save time for all; drawn over time, every point would sit at 0.
 */
export function savedOverTime(buckets: readonly CostBucket[]): boolean {
  if (buckets.length === 0) return false;
  return buckets.every(
    (b, i) =>
      i === 0 || Date.parse(b.last_saved_at) > Date.parse((buckets[i - 1] as CostBucket).last_saved_at),
  );
}

/**
 * The time of each bucket: by its judge calls' answer times where every bucket that called a judge
 * recorded them (a running maximum, so buckets whose calls overlapped still move forward), else by
 * save time where that tells the buckets apart (`savedOverTime`), else none.
 */
function bucketTimes(
  buckets: readonly CostBucket[],
): { clock: 'calls' | 'saves'; start: number; ends: number[] } | undefined {
  const called = buckets.filter((b) => b.calls > 0);
  if (called.length > 0 && called.every((b) => b.first_call_at && b.last_call_at)) {
    const start = Math.min(...called.map((b) => Date.parse(b.first_call_at as string)));
    let latest = start;
    const ends = buckets.map((b) => {
      if (b.last_call_at) latest = Math.max(latest, Date.parse(b.last_call_at));
      return latest;
    });
    return { clock: 'calls', start, ends };
  }
  if (!savedOverTime(buckets)) return undefined;
  return {
    clock: 'saves',
    start: Date.parse((buckets[0] as CostBucket).first_saved_at),
    ends: buckets.map((b) => Date.parse(b.last_saved_at)),
  };
}

/**
 * Judge usage summed over the run: cumulative tokens (prompt and completion) or calls at each
 * bucket's end, from 0. The x axis is time since the first judge call (s, min or h) where the calls
 * recorded their times, else since the first save where the save times tell the buckets apart, else
 * the results saved; its label says which.
 */
export function costOverTimeChart(
  buckets: readonly CostBucket[],
  measure: 'tokens' | 'calls',
): LineChartInput {
  const times = bucketTimes(buckets);
  const span = times ? Math.max(0, ...times.ends) - times.start : 0;
  const unit = TIME_UNITS.find((u) => span >= 2 * u.ms) ?? TIME_UNITS[2];
  const at = (b: CostBucket, i: number) =>
    times ? ((times.ends[i] as number) - times.start) / unit.ms : b.before + b.results;
  const cumulative = (value: (b: CostBucket) => number) => {
    let total = 0;
    return [
      { x: 0, y: 0 },
      ...buckets.map((b, i) => {
        total += value(b);
        return { x: at(b, i), y: total };
      }),
    ];
  };
  const last = buckets.at(-1);
  return {
    series:
      measure === 'tokens'
        ? [
            { name: 'prompt tokens', points: cumulative((b) => b.prompt_tokens) },
            { name: 'completion tokens', points: cumulative((b) => b.completion_tokens) },
          ]
        : [{ name: 'calls', points: cumulative((b) => b.calls) }],
    // From 0, and at least one unit wide.
    xDomain: [0, Math.max(1, times ? span / unit.ms : last ? last.before + last.results : 0)],
    xLabel:
      times?.clock === 'calls'
        ? `time since the first judge call was answered (${unit.name})`
        : times
          ? `time since the first result was saved (${unit.name})`
          : 'results saved (saved together: no time to tell apart)',
    yLabel: measure === 'tokens' ? 'tokens, cumulative' : 'calls, cumulative',
  };
}
