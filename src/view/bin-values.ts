import type { BinnedCounts } from './histogram-svg.js';

/** Equal-width bins over values held in memory (as the stores bin in SQL); NaN and infinities are left out. */
export function binValues(values: ArrayLike<number>, bins: number): BinnedCounts {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const counts: number[] = Array(bins).fill(0);
  if (min > max) return { min: 0, max: 0, counts };
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) continue;
    const bin = max === min ? 0 : Math.min(Math.floor(((v - min) * bins) / (max - min)), bins - 1);
    counts[bin] = (counts[bin] as number) + 1;
  }
  return { min, max, counts };
}
