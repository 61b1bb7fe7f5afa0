import { describe, expect, test } from 'vitest';
import { type ContradictionSeverity, premiseReliability } from './premise-reliability.js';

describe('premiseReliability', () => {
  test.each<[string, ContradictionSeverity[], number]>([
    ['no contradiction', [], 1],
    ['one Low', ['Low'], 0.8],
    ['one High', ['High'], 0.5],
    ['one High + one Low (methods vector)', ['High', 'Low'], 0.3],
    ['two High + one Low clamps at 0 (methods vector)', ['High', 'High', 'Low'], 0],
    ['five Low', ['Low', 'Low', 'Low', 'Low', 'Low'], 0],
    ['three Low', ['Low', 'Low', 'Low'], 0.4],
  ])('should give %s p = %s', (_, severities, p) => {
    expect(premiseReliability(severities)).toBeCloseTo(p, 12);
  });

  test('should read exactly 0.3 for one High and one Low, so ties compare cleanly', () => {
    expect(premiseReliability(['Low', 'High'])).toBe(0.3);
  });
});
