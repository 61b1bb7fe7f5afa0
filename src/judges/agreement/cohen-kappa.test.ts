import { describe, expect, it } from 'vitest';
import { cohenKappa, type RatingPair, weightedCohenKappa } from './cohen-kappa.js';

/** `count` units rated (a, b). */
const cells = <C>(...table: [C, C, number][]): RatingPair<C>[] =>
  table.flatMap(([a, b, count]) => Array.from({ length: count }, () => [a, b] as const));

// Wikipedia, "Cohen's kappa", worked example: 50 proposals, both yes 20, A yes B no 5, A no B yes 10,
// both no 15. p_o = 35/50 = 0.7, p_e = 0.5·0.6 + 0.5·0.4 = 0.5, kappa = 0.4.
const wikipedia = cells(['yes', 'yes', 20], ['yes', 'no', 5], ['no', 'yes', 10], ['no', 'no', 15]);

describe('cohenKappa', () => {
  it("should give Wikipedia's 50-proposal example its kappa of 0.4", () => {
    const kappa = cohenKappa(wikipedia);
    expect(kappa.units).toBe(50);
    expect(kappa.value).toBeCloseTo(0.4, 12);
  });

  it('should be 1 for perfect agreement and 0 for raters whose marginals explain all agreement', () => {
    expect(cohenKappa(cells(['a', 'a', 3], ['b', 'b', 2])).value).toBe(1);
    // Independent raters: every cell is the product of the marginals (p_o = p_e = 0.5).
    expect(cohenKappa(cells(['a', 'a', 1], ['a', 'b', 1], ['b', 'a', 1], ['b', 'b', 1])).value).toBe(0);
  });

  it('should say why, not NaN, when both raters use one category or rated nothing', () => {
    expect(cohenKappa(cells(['pass', 'pass', 4]))).toEqual({
      value: null,
      units: 4,
      reason: 'both raters gave every unit the same category (pass)',
    });
    expect(cohenKappa([])).toMatchObject({ value: null, units: 0 });
  });
});

describe('weightedCohenKappa', () => {
  it('should equal the unweighted kappa with two categories, either weighting', () => {
    for (const weights of ['linear', 'quadratic'] as const) {
      expect(weightedCohenKappa(wikipedia, ['no', 'yes'], weights).value).toBeCloseTo(0.4, 12);
    }
  });

  it('should count near misses less than far ones', () => {
    // Rows 2,1,1 and columns 1,1,2 over ranks 0..2; the one disagreement is (0, 2), weight 1.
    // Linear: chance disagreement Σ w·r·c / n = 8/4 = 2 -> 1 − 1/2. Quadratic: 6.5/4 -> 1 − 1/1.625.
    const pairs = cells([0, 0, 1], [1, 1, 1], [2, 2, 1], [0, 2, 1]);
    expect(weightedCohenKappa(pairs, [0, 1, 2], 'linear').value).toBeCloseTo(0.5, 12);
    expect(weightedCohenKappa(pairs, [0, 1, 2], 'quadratic').value).toBeCloseTo(1 - 1 / 1.625, 12);
    // The same disagreement one step apart instead costs less.
    const near = cells([0, 0, 1], [1, 1, 1], [2, 2, 1], [0, 1, 1]);
    expect(weightedCohenKappa(near, [0, 1, 2], 'linear').value as number).toBeGreaterThan(0.5);
  });

  it('should refuse a rating outside the ordered categories', () => {
    expect(() => weightedCohenKappa([[0, 3]], [0, 1, 2], 'linear')).toThrow(/rating 3 is not among/);
  });
});
