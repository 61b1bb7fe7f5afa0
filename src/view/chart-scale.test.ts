import { describe, expect, test } from 'vitest';
import { linearScale, tickLabel } from './chart-scale.js';

describe('linearScale', () => {
  test.each([
    [0, 1, 5, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [0.13, 0.87, 4, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [-2.4, 1.7, 4, [-4, -2, 0, 2]],
    [0, 1234, 5, [0, 500, 1000, 1500]],
    [3, 3, 5, [2.6, 2.8, 3, 3.2, 3.4]],
    [0, 0, 4, [-0.5, 0, 0.5]],
  ])('should widen [%d, %d] to round ticks (about %d): %j', (min, max, count, ticks) => {
    expect(linearScale(min, max, [0, 100], count).ticks).toEqual(ticks);
  });

  test('should map the widened domain onto the range, inverted for y', () => {
    const y = linearScale(0, 1, [90, 10]);
    expect(y.at(0)).toBe(90);
    expect(y.at(1)).toBe(10);
    expect(y.at(0.5)).toBe(50);
  });

  test('should survive no data (infinite bounds) with a small default domain', () => {
    const s = linearScale(Math.min(), Math.max(), [0, 10]);
    expect(s.ticks.length).toBeGreaterThan(1);
    expect(Number.isFinite(s.at(0))).toBe(true);
  });

  test.each([
    [0.123456, '0.123'],
    [12_500, '12.5k'],
    [3_250_000, '3.25M'],
    [-0.5, '-0.5'],
  ])('should label %d as %s', (value, label) => {
    expect(tickLabel(value)).toBe(label);
  });
});
