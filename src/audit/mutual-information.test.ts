import { describe, expect, it } from 'vitest';
import { createRng } from '../core/index.js';
import { gaussianPairs } from '../core/test-utils/gaussian-pairs.js';
import {
  binnedMutualInformation,
  clubUpperBound,
  defaultBinCount,
  mutualInformation,
  mutualInformationValue,
  quantileBins,
} from './mutual-information.js';

describe('mutualInformationValue', () => {
  it('equals the entropy on a deterministic relation: uniform over 4 values gives ln 4', () => {
    const x = Array.from({ length: 400 }, (_, i) => i % 4);
    const y = x.map((v) => ['a', 'b', 'c', 'd'][v] as string);
    const mi = mutualInformationValue(x, y);
    expect(mi.plugin).toBeCloseTo(Math.log(4), 12);
    // Miller–Madow adds [(4−1) + (4−1) − (4−1)]/(2N) for the 4 occupied cells of each table.
    expect(mi.millerMadow).toBeCloseTo(Math.log(4) + 3 / 800, 12);
  });

  it('is exactly 0 on a balanced product table', () => {
    const x = Array.from({ length: 40 }, (_, i) => i % 2);
    const y = Array.from({ length: 40 }, (_, i) => Math.floor(i / 2) % 2 === 0);
    expect(mutualInformationValue(x, y).plugin).toBeCloseTo(0, 12);
  });
});

describe('mutualInformation', () => {
  it('of independent variables is ≈ 0, within its interval, which contains the estimate', () => {
    const rng = createRng(11);
    const x = Array.from({ length: 500 }, () => rng.int(0, 3));
    const y = Array.from({ length: 500 }, () => rng.int(0, 2));
    const mi = mutualInformation(x, y, { seed: 1 });
    if (mi.value === null) throw new Error(mi.reason);
    expect(Math.abs(mi.value)).toBeLessThan(0.02);
    expect(mi.ci[0]).toBeLessThanOrEqual(0);
    expect(mi.ci[1]).toBeGreaterThanOrEqual(0);
    expect(mi.ci[0]).toBeLessThanOrEqual(mi.value);
    expect(mi.ci[1]).toBeGreaterThanOrEqual(mi.value);
  });

  it('of a deterministic relation has an interval around ln 4', () => {
    const x = Array.from({ length: 400 }, (_, i) => i % 4);
    const mi = mutualInformation(x, x, { seed: 2 });
    if (mi.value === null) throw new Error(mi.reason);
    expect(mi.ci[0]).toBeLessThanOrEqual(Math.log(4));
    expect(mi.ci[1]).toBeGreaterThanOrEqual(mi.value);
    expect(mi.ci[0]).toBeGreaterThan(Math.log(4) - 0.05);
  });

  it('is null with a reason below the minimum or on a constant side', () => {
    expect(mutualInformation([1, 2, 3], [1, 2, 3]).reason).toMatch(/below the minimum of 10/);
    const constant = mutualInformation(
      Array.from({ length: 20 }, (_, i) => i),
      Array.from({ length: 20 }, () => 'x'),
    );
    expect(constant.value).toBeNull();
    expect(constant.reason).toMatch(/constant/);
  });

  it('rejects unpaired or non-finite labels before work', () => {
    const x = Array.from({ length: 20 }, (_, i) => i % 3);
    expect(() => mutualInformation(x, x.slice(1))).toThrow(expect.objectContaining({ code: 'RK_USAGE' }));
    expect(() => mutualInformation([...x.slice(1), Number.NaN], x)).toThrow(/non-finite/);
  });
});

describe('quantileBins', () => {
  it('gives about N/k samples per bin, ties in one bin, and keeps few-valued variables', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
    const bins = quantileBins(values, 4);
    for (let b = 0; b < 4; b++) expect(bins.filter((v) => v === b)).toHaveLength(25);
    expect(quantileBins([0, 1, 1, 0, 1], 2)).toEqual([0, 1, 1, 0, 1]);
    const tied = quantileBins([5, 5, 5, 5, 1, 2, 3, 4, 6, 7], 3);
    expect(new Set(tied.slice(0, 4)).size).toBe(1);
    expect(defaultBinCount(9)).toBe(2);
    expect(defaultBinCount(1000)).toBe(10);
    expect(defaultBinCount(1e6)).toBe(10);
  });
});

describe('binnedMutualInformation', () => {
  it('finds a length-driven discrete reward and not an unrelated one', () => {
    const rng = createRng(5);
    const length = Array.from({ length: 300 }, () => rng.int(10, 500));
    const driven = length.map((l) => (l > 250 ? 1 : 0));
    const unrelated = length.map(() => rng.int(0, 1));
    const a = binnedMutualInformation(length, driven, 'discrete', { seed: 1 });
    const b = binnedMutualInformation(length, unrelated, 'discrete', { seed: 1 });
    if (a.value === null || b.value === null) throw new Error('null estimate');
    expect(a.ci[0]).toBeGreaterThan(0.3);
    expect(b.ci[0]).toBeLessThanOrEqual(0);
  });
});

describe('clubUpperBound', () => {
  it('bounds the true MI −½ ln(1−ρ²) from above on Gaussian pairs', () => {
    for (const [rho, seed] of [
      [0.3, 1],
      [0.6, 2],
      [0.9, 3],
    ] as const) {
      const { x, y } = gaussianPairs(rho, 2000, seed);
      const trueMi = -0.5 * Math.log(1 - rho * rho);
      const club = clubUpperBound(x, y, { seed, resamples: 200 });
      if (club.value === null) throw new Error(club.reason);
      expect(club.value).toBeGreaterThanOrEqual(trueMi);
      expect(club.ci[0]).toBeLessThanOrEqual(club.value);
      expect(club.ci[1]).toBeGreaterThanOrEqual(club.value);
      // The binned plug-in sits below the true MI (binning loses information) and its interval surrounds it.
      const binned = binnedMutualInformation(x, y, 'continuous', { seed });
      if (binned.value === null) throw new Error(binned.reason);
      expect(binned.ci[0]).toBeLessThanOrEqual(binned.value);
      expect(binned.ci[1]).toBeGreaterThanOrEqual(binned.value);
      expect(club.value).toBeGreaterThan(binned.value);
      // Its population value on Gaussians is ρ²/(1−ρ²): the estimate lands near it.
      expect(club.value).toBeCloseTo((rho * rho) / (1 - rho * rho), 0);
    }
  });

  it('is null with a reason when the attribute is a linear function of the reward or too few', () => {
    const r = Array.from({ length: 20 }, (_, i) => i);
    expect(
      clubUpperBound(
        r.map((v) => 2 * v + 1),
        r,
      ).reason,
    ).toMatch(/exact linear function/);
    expect(clubUpperBound(r.slice(0, 5), r.slice(0, 5)).reason).toMatch(/below the minimum/);
  });
});
