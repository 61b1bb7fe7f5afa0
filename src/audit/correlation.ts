import { type BootstrapOptions, bootstrapInterval } from './bootstrap-interval.js';
import { assertFinite, assertPaired, type Estimate, MIN_AUDIT_SAMPLES, noEstimate } from './estimate.js';

/** Pearson's r, or null when either side has zero variance (r is 0/0 there, not 0). */
export function pearsonValue(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  // Rounding can push |r| a hair past 1 on exact linear relations.
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** Ranks from 1, ties given the average of the ranks they span (so Spearman stays Pearson on ranks). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.[0] === order[start]?.[0]) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[(order[k] as readonly [number, number])[1]] = rank;
    start = end + 1;
  }
  return ranks;
}

/** Spearman's ρ: Pearson on average ranks; null on zero variance. */
export const spearmanValue = (x: readonly number[], y: readonly number[]): number | null =>
  pearsonValue(averageRanks(x), averageRanks(y));

function correlation(
  name: string,
  value: (x: readonly number[], y: readonly number[]) => number | null,
  x: readonly number[],
  y: readonly number[],
  options: BootstrapOptions,
): Estimate {
  assertPaired(name, x, y);
  assertFinite(name, x);
  assertFinite(name, y);
  const n = x.length;
  if (n < MIN_AUDIT_SAMPLES) return noEstimate(n, `${n} samples, below the minimum of ${MIN_AUDIT_SAMPLES}`);
  const estimate = value(x, y);
  if (estimate === null)
    return noEstimate(n, 'zero variance: one side is constant, so no correlation is defined');
  const pick = (v: readonly number[], idx: readonly number[]) => idx.map((i) => v[i] as number);
  const ci = bootstrapInterval(n, (idx) => value(pick(x, idx), pick(y, idx)), options);
  if (ci === null)
    return noEstimate(n, 'most bootstrap resamples had zero variance; too few distinct values');
  return { value: estimate, ci, n, reason: null };
}

/** Pearson's r with a seeded percentile-bootstrap interval; null with a reason below the minimum or on zero variance. */
export const pearson = (
  x: readonly number[],
  y: readonly number[],
  options: BootstrapOptions = {},
): Estimate => correlation('pearson', pearsonValue, x, y, options);

/** Spearman's ρ (average ranks for ties) with a seeded percentile-bootstrap interval. */
export const spearman = (
  x: readonly number[],
  y: readonly number[],
  options: BootstrapOptions = {},
): Estimate => correlation('spearman', spearmanValue, x, y, options);
