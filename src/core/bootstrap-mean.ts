import { createRng } from './rng.js';

/** Resamples (default 10,000), seed (default 0: the same input gives the same interval) and coverage (0.95). */
export interface BootstrapMeanOptions {
  resamples?: number;
  seed?: number;
  level?: number;
}

/** The percentile bootstrap interval of the mean of `values` (per-seed effects, per-sample lifts), resampled with a seeded RNG. */
export function bootstrapMeanInterval(
  values: readonly number[],
  options: BootstrapMeanOptions = {},
): [number, number] {
  const n = values.length;
  if (n === 0) return [Number.NaN, Number.NaN];
  const { resamples = 10_000, seed = 0, level = 0.95 } = options;
  const rng = createRng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(rng.next() * n)] as number;
    means[r] = sum / n;
  }
  means.sort();
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))] as number;
  return [at((1 - level) / 2), at(1 - (1 - level) / 2)];
}
