import { describe, expect, test } from 'vitest';
import { calibrationMetrics } from './calibration-metrics.js';
import { crossFittedPredictions } from './cross-fit.js';
import { inSamplePredictions } from './fit-calibration-map.js';
import { miscalibratedFixture } from './test-utils/miscalibrated-fixture.js';

const fixture = miscalibratedFixture(3000, 7);
const scores = fixture.map((p) => p.score);
const labels = fixture.map((p) => p.label);

describe('fits reduce ECE on a miscalibrated fixture', () => {
  const before = calibrationMetrics(scores, labels);

  test('the fixture is miscalibrated', () => {
    expect(before.ece).toBeGreaterThan(0.08);
  });

  test.each(['isotonic', 'platt'] as const)('%s: cross-fitted ECE and Brier fall', (method) => {
    const after = calibrationMetrics(crossFittedPredictions(fixture, method, 5, 1), labels);
    expect(after.ece).toBeLessThan(before.ece / 2);
    expect(after.brier).toBeLessThan(before.brier);
  });

  test('in-sample isotonic ECE is no higher than cross-fitted (it is optimistic)', () => {
    const inSample = calibrationMetrics(inSamplePredictions(fixture, 'isotonic'), labels);
    const crossed = calibrationMetrics(crossFittedPredictions(fixture, 'isotonic', 5, 1), labels);
    expect(inSample.ece).toBeLessThanOrEqual(crossed.ece);
  });
});

describe('crossFittedPredictions', () => {
  const small = fixture.slice(0, 40);

  test('the same seed gives the same folds; each point is predicted once', () => {
    const a = crossFittedPredictions(small, 'platt', 4, 3);
    expect(a).toEqual(crossFittedPredictions(small, 'platt', 4, 3));
    expect(a).toHaveLength(40);
    for (const v of a) expect(v).toBeGreaterThanOrEqual(0);
  });

  test.each([
    { folds: 1, n: 40, message: /at least 2/ },
    { folds: 2.5, n: 40, message: /integer/ },
    { folds: 5, n: 3, message: /5 folds need at least 5 labelled points, got 3/ },
  ])('rejects folds=$folds on $n points', ({ folds, n, message }) => {
    expect(() => crossFittedPredictions(fixture.slice(0, n), 'isotonic', folds, 0)).toThrow(message);
  });
});
