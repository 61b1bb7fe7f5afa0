import { RewardKitError } from '../core/index.js';

/** One observation to calibrate: the raw score, its label in [0, 1], and its weight (default 1). */
export interface CalibrationPoint {
  readonly score: number;
  readonly label: number;
  readonly weight?: number;
}

/**
 * A non-decreasing step map from raw score to calibrated value: the knots' x strictly increase and
 * their y never decrease. Between knots the value is interpolated linearly; outside, it is clamped.
 */
export interface IsotonicKnots {
  readonly x: readonly number[];
  readonly y: readonly number[];
}

/**
 * Weighted isotonic regression by pool-adjacent-violators. Points with equal scores are pooled
 * first (their weighted mean label), so a tie never gets two values. Each pooled block keeps its
 * first and last score as knots: interpolating between them gives the same step function wherever
 * data lay, and a linear ramp across the gap between two blocks instead of a jump.
 */
export function fitIsotonic(points: readonly CalibrationPoint[]): IsotonicKnots {
  if (points.length === 0)
    throw new RewardKitError('RK_USAGE', 'isotonic regression needs at least one point');
  for (const p of points) checkPoint(p);
  const sorted = [...points].sort((a, b) => a.score - b.score);
  // Blocks as parallel stacks: weighted label sum, weight, first and last score.
  const sum: number[] = [];
  const weight: number[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  for (const p of sorted) {
    const w = p.weight ?? 1;
    const top = sum.length - 1;
    if (top >= 0 && hi[top] === p.score) {
      sum[top] = (sum[top] as number) + w * p.label;
      weight[top] = (weight[top] as number) + w;
    } else {
      sum.push(w * p.label);
      weight.push(w);
      lo.push(p.score);
      hi.push(p.score);
    }
    // Pool backwards while the last block's mean falls below the one before it.
    while (sum.length > 1) {
      const j = sum.length - 1;
      const meanJ = (sum[j] as number) / (weight[j] as number);
      const meanI = (sum[j - 1] as number) / (weight[j - 1] as number);
      if (meanI <= meanJ) break;
      sum[j - 1] = (sum[j - 1] as number) + (sum.pop() as number);
      weight[j - 1] = (weight[j - 1] as number) + (weight.pop() as number);
      hi[j - 1] = hi.pop() as number;
      lo.pop();
    }
  }
  const x: number[] = [];
  const y: number[] = [];
  sum.forEach((s, i) => {
    const mean = s / (weight[i] as number);
    x.push(lo[i] as number);
    y.push(mean);
    if ((hi[i] as number) > (lo[i] as number)) {
      x.push(hi[i] as number);
      y.push(mean);
    }
  });
  return { x, y };
}

/** The isotonic map's value at `score`: linear between knots, the end values outside them. */
export function applyIsotonic(knots: IsotonicKnots, score: number): number {
  const { x, y } = knots;
  const last = x.length - 1;
  if (score <= (x[0] as number)) return y[0] as number;
  if (score >= (x[last] as number)) return y[last] as number;
  // Binary search for the knot interval [x[i], x[i + 1]] holding the score.
  let i = 0;
  let j = last;
  while (j - i > 1) {
    const mid = (i + j) >> 1;
    if ((x[mid] as number) <= score) i = mid;
    else j = mid;
  }
  const x0 = x[i] as number;
  const x1 = x[j] as number;
  const y0 = y[i] as number;
  const y1 = y[j] as number;
  return y0 + ((score - x0) / (x1 - x0)) * (y1 - y0);
}

function checkPoint(p: CalibrationPoint): void {
  if (!Number.isFinite(p.score))
    throw new RewardKitError('RK_USAGE', `score ${p.score} is not a finite number`);
  if (!(p.label >= 0 && p.label <= 1))
    throw new RewardKitError('RK_USAGE', `label ${p.label} is not in [0, 1]`);
  const w = p.weight ?? 1;
  if (!(Number.isFinite(w) && w > 0))
    throw new RewardKitError('RK_USAGE', `weight ${w} is not a positive number`);
}
