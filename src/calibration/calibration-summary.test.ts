import { describe, expect, test } from 'vitest';
import { calibrationSummary } from './calibration-summary.js';
import { miscalibratedFixture } from './test-utils/miscalibrated-fixture.js';

const options = { method: 'isotonic', bins: 10, folds: 5, seed: 0 } as const;

describe('calibrationSummary', () => {
  test('measures before, cross-fitted and in-sample on the same bins', () => {
    const summary = calibrationSummary(miscalibratedFixture(500, 3), options);
    expect(summary.n).toBe(500);
    expect(summary.before?.bins).toHaveLength(10);
    expect(summary.after.cross_fitted.n).toBe(500);
    expect(summary.after.cross_fitted.ece).toBeLessThan(summary.before?.ece as number);
  });

  test('scores outside [0, 1] have no "before" error, with the reason', () => {
    const points = miscalibratedFixture(100, 3).map((p) => ({ ...p, score: 10 * p.score }));
    const summary = calibrationSummary(points, { ...options, method: 'platt' });
    expect(summary.before).toBeNull();
    expect(summary.before_reason).toMatch(/outside \[0, 1\].*not probabilities/);
    expect(summary.after.cross_fitted.ece).toBeGreaterThanOrEqual(0);
  });

  test.each([
    {
      points: [0.1, 0.5, 0.9].map((score) => ({ score, label: 1 })),
      method: 'isotonic' as const,
      message: /all 3 labelled points have the label 1/,
    },
    {
      points: [0.1, 0.5, 0.9].map((score, i) => ({ score, label: i / 2 })),
      method: 'platt' as const,
      message: /binary labels.*--method isotonic/,
    },
  ])('refuses labels that cannot support the fit: $message', ({ points, method, message }) => {
    expect(() => calibrationSummary(points, { ...options, method, folds: 2 })).toThrow(message);
  });
});
