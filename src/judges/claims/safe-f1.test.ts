import { describe, expect, test } from 'vitest';
import { safeF1AtK } from './safe-f1.js';

describe('safeF1AtK', () => {
  // Hand-worked: P = S/(S+N), R = min(1, S/K), F1 = 2PR/(P+R).
  test.each([
    [8, 2, 10, 0.8, 0.8, 0.8],
    [8, 2, 64, 0.8, 0.125, 0.216216],
    [70, 30, 64, 0.7, 1, 0.823529],
    [3, 0, 3, 1, 1, 1],
    [0, 4, 10, 0, 0, 0],
  ])('S=%i N=%i K=%i -> P %d, R %d, F1 %d', (s, n, k, precision, recall, f1) => {
    const got = safeF1AtK(s, n, k);
    expect(got?.precision).toBeCloseTo(precision, 12);
    expect(got?.recall).toBeCloseTo(recall, 12);
    expect(got?.f1).toBeCloseTo(f1, 6);
  });

  test('should be undefined with no claims and refuse K ≤ 0', () => {
    expect(safeF1AtK(0, 0, 10)).toBeUndefined();
    expect(() => safeF1AtK(1, 0, 0)).toThrow(/K must be positive/);
  });
});
