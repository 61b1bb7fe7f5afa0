import { describe, expect, test } from 'vitest';
import { calibrationMetrics, reliabilityCurve } from './calibration-metrics.js';

describe('calibrationMetrics', () => {
  test('hand-computed bins', () => {
    // bin 0: {0.05 → 0}, gap 0.05; bin 1: {0.15 → 1, 0.15 → 0}, gap 0.35; bin 9: {0.95 → 1}, gap 0.05.
    const m = calibrationMetrics([0.05, 0.15, 0.15, 0.95], [0, 1, 0, 1]);
    expect(m.ece).toBeCloseTo((0.05 + 2 * 0.35 + 0.05) / 4, 12);
    expect(m.mce).toBeCloseTo(0.35, 12);
    expect(m.brier).toBeCloseTo((0.0025 + 0.7225 + 0.0225 + 0.0025) / 4, 12);
    expect(m.bins.map((b) => b.count)).toEqual([1, 2, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(m.bins[2]).toEqual({ lo: 0.2, hi: 0.3, count: 0, mean_score: null, observed: null });
  });

  test('perfect calibration has zero ECE and MCE', () => {
    const m = calibrationMetrics([0.25, 0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 0.75], [1, 0, 0, 0, 1, 1, 1, 0]);
    expect(m.ece).toBe(0);
    expect(m.mce).toBe(0);
    expect(m.brier).toBeCloseTo(0.1875, 12);
  });

  test('fractional labels count as that share of a positive', () => {
    const m = calibrationMetrics([0.3, 0.3], [0.2, 0.4], 2);
    expect(m.ece).toBeCloseTo(0, 12);
  });

  test.each([
    [[1], [1], 4, 3],
    [[0.5], [0], 2, 1],
    [[0.1], [0], 10, 1],
    [[0], [0], 10, 0],
  ])(
    'probability %j with %j in %d bins lands in bin %d (upper edge goes up, 1 to the last)',
    (p, y, bins, at) => {
      const curve = reliabilityCurve(p, y, bins);
      expect(curve.findIndex((b) => b.count === 1)).toBe(at);
    },
  );

  test.each([
    { p: [1.2], y: [1], bins: 10, message: /probability 1.2 at index 0 is not in \[0, 1\]/ },
    { p: [0.2], y: [2], bins: 10, message: /label 2/ },
    { p: [0.2], y: [1], bins: 0, message: /bin count 0/ },
    { p: [], y: [], bins: 10, message: /no points/ },
  ])('rejects $message', ({ p, y, bins, message }) => {
    expect(() => calibrationMetrics(p, y, bins)).toThrow(message);
  });
});
