import { describe, expect, it } from 'vitest';
import { categoryCounts, fleissKappa } from './fleiss-kappa.js';

// Fleiss (1971) as worked in Wikipedia's "Fleiss' kappa": 10 subjects, 14 raters, 5 categories;
// P̄ = 0.378, P̄_e = 0.213, kappa = 0.210.
const fleiss1971 = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

describe('fleissKappa', () => {
  it('should give the worked example its kappa of 0.210', () => {
    const kappa = fleissKappa(fleiss1971);
    expect(kappa.units).toBe(10);
    expect(kappa.value).toBeCloseTo(0.21, 3);
  });

  it('should be 1 on perfect agreement', () => {
    expect(
      fleissKappa(
        categoryCounts([
          ['a', 'a', 'a'],
          ['b', 'b', 'b'],
        ]),
      ).value,
    ).toBe(1);
  });

  it('should say why, not NaN, when every rating is in one category', () => {
    expect(
      fleissKappa(
        categoryCounts([
          ['pass', 'pass'],
          ['pass', 'pass'],
        ]),
      ),
    ).toEqual({
      value: null,
      units: 2,
      reason: 'every rating is in one category',
    });
  });

  it('should refuse subjects with different numbers of ratings', () => {
    expect(() =>
      fleissKappa([
        [2, 1],
        [1, 1],
      ]),
    ).toThrow(/subject 1 has 2 ratings, subject 0 has 3/);
  });
});
