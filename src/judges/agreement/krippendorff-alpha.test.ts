import { describe, expect, it } from 'vitest';
import { krippendorffAlpha } from './krippendorff-alpha.js';

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers,
// 12 units, missing values. By coder (rows), transposed below to units.
const _ = null;
const coders = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];
const units = (coders[0] as (number | null)[]).map((__, u) => coders.map((row) => row[u]));

describe('krippendorffAlpha', () => {
  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
  ] as const)("should give Krippendorff's (2011) example its %s alpha of %s", (level, alpha) => {
    const result = krippendorffAlpha(units, level);
    // Unit 12 has one value: it is not pairable.
    expect(result.units).toBe(11);
    expect(result.value).toBeCloseTo(alpha, 3);
  });

  it('should read nominal labels that are not numbers', () => {
    const labels = units.map((unit) => unit.map((v) => (v === null ? null : `c${v}`)));
    expect(krippendorffAlpha(labels, 'nominal').value).toBeCloseTo(0.743, 3);
  });

  it('should say why, not NaN, when every rating agrees or no unit is pairable', () => {
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [1, 1, null],
        ],
        'interval',
      ),
    ).toEqual({
      value: null,
      units: 2,
      reason: 'every pairable rating has the same value',
    });
    expect(krippendorffAlpha([[1, null], [2]], 'nominal')).toMatchObject({ value: null, units: 0 });
  });
});
