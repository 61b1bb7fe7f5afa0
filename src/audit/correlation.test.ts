import { describe, expect, it } from 'vitest';
import { averageRanks, pearson, pearsonValue, spearman, spearmanValue } from './correlation.js';
import { MIN_AUDIT_SAMPLES } from './estimate.js';

const xs = Array.from({ length: 20 }, (_, i) => i + 1);

describe('pearson and spearman values', () => {
  it('give 1 on a monotone non-linear relation for Spearman, less than 1 for Pearson', () => {
    const ys = xs.map((v) => Math.exp(v / 3));
    expect(spearmanValue(xs, ys)).toBeCloseTo(1, 12);
    expect(pearsonValue(xs, ys)).toBeLessThan(0.95);
  });

  it('match a hand-computed vector', () => {
    // x = 1..5, y = (2, 4, 5, 4, 5): sxy = 6, sxx = 10, syy = 6 → r = 6/√60.
    expect(pearsonValue([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])).toBeCloseTo(6 / Math.sqrt(60), 12);
    expect(pearsonValue([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
  });

  it('average tied ranks', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });

  it('are null on zero variance', () => {
    expect(pearsonValue([1, 2, 3], [4, 4, 4])).toBeNull();
  });
});

describe('pearson and spearman estimates', () => {
  const noisy = xs.map((v, i) => v + ((i * 7919) % 11) - 5);

  it('carry a seeded interval that contains the estimate and repeats', () => {
    for (const estimator of [pearson, spearman]) {
      const a = estimator(xs, noisy, { seed: 3 });
      if (a.value === null) throw new Error(a.reason);
      expect(a.ci[0]).toBeLessThanOrEqual(a.value);
      expect(a.ci[1]).toBeGreaterThanOrEqual(a.value);
      expect(a.ci[1]).toBeLessThanOrEqual(1);
      expect(estimator(xs, noisy, { seed: 3 })).toEqual(a);
      expect(estimator(xs, noisy, { seed: 4 }).ci).not.toEqual(a.ci);
    }
  });

  it('are null with a reason below the minimum, never 0', () => {
    const few = xs.slice(0, MIN_AUDIT_SAMPLES - 1);
    const r = pearson(few, few);
    expect(r.value).toBeNull();
    expect(r.reason).toMatch(/below the minimum of 10/);
    expect(spearman(xs, xs).value).toBeCloseTo(1, 12);
  });

  it('are null with a reason on zero variance', () => {
    const r = spearman(
      xs,
      xs.map(() => 1),
    );
    expect(r.value).toBeNull();
    expect(r.reason).toMatch(/zero variance/);
  });

  it('reject unpaired or non-finite input before work', () => {
    expect(() => pearson(xs, xs.slice(1))).toThrow(expect.objectContaining({ code: 'RK_USAGE' }));
    expect(() => pearson([...xs.slice(1), Number.NaN], xs)).toThrow(/non-finite/);
  });
});
