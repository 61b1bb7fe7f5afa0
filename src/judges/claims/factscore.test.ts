import { describe, expect, test } from 'vitest';
import { factScore } from './factscore.js';

describe('factScore', () => {
  // Hand-worked: 4/5 × exp(1 - 10/5) = 0.8 × e^-1; 10 facts or more carry no penalty.
  test.each([
    [4, 5, 0.8 * Math.exp(-1), 0.294304],
    [7, 10, 0.7, 0.7],
    [12, 20, 0.6, 0.6],
    [1, 1, Math.exp(-9), 0.000123],
    [0, 8, 0, 0],
    [8, 8, Math.exp(1 - 10 / 8), 0.778801],
  ])('%i supported of %i -> %d', (supported, total, exact, rounded) => {
    const got = factScore(supported, total) as number;
    expect(got).toBeCloseTo(exact, 12);
    expect(got).toBeCloseTo(rounded, 6);
  });

  test('should take another gamma, and be undefined with no facts', () => {
    expect(factScore(2, 4, 4) as number).toBeCloseTo(0.5, 12);
    expect(factScore(0, 0)).toBeUndefined();
  });
});
