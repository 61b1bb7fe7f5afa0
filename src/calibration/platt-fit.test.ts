import { describe, expect, test } from 'vitest';
import { applyPlatt, fitPlatt } from './platt-fit.js';
import { miscalibratedFixture } from './test-utils/miscalibrated-fixture.js';

describe('fitPlatt', () => {
  // With two distinct scores the logistic model is saturated: the fit reproduces each score's mean
  // smoothed target exactly, so a and b have closed forms.
  test.each([
    {
      name: 'overlapping classes',
      // N+ = 4, N- = 4: targets 5/6 and 1/6; mean target 1/3 at score 0 and 2/3 at score 1.
      scores: [0, 0, 0, 0, 1, 1, 1, 1],
      labels: [0, 0, 0, 1, 0, 1, 1, 1],
      a: 2 * Math.log(2),
      b: -Math.log(2),
    },
    {
      name: 'separable classes stay finite through target smoothing',
      // N+ = 3, N- = 3: targets 4/5 and 1/5, so b = logit(1/5) and a = 2·logit(4/5).
      scores: [0, 0, 0, 1, 1, 1],
      labels: [0, 0, 0, 1, 1, 1],
      a: 2 * Math.log(4),
      b: -Math.log(4),
    },
    {
      name: 'separable classes at extreme scores do not overflow',
      // targets 2/3 and 1/3 at ±1000: b = 0, a·1000 = ln 2.
      scores: [-1000, 1000],
      labels: [0, 1],
      a: Math.log(2) / 1000,
      b: 0,
    },
  ])('$name', ({ scores, labels, a, b }) => {
    const fit = fitPlatt(scores, labels);
    expect(fit.a).toBeCloseTo(a, 8);
    expect(fit.b).toBeCloseTo(b, 8);
  });

  test('equal scores predict the mean smoothed target', () => {
    // N+ = 1, N- = 3: targets 2/3 and 1/5, mean (2/3 + 3/5) / 4 = 19/60.
    const fit = fitPlatt([0.5, 0.5, 0.5, 0.5], [1, 0, 0, 0]);
    expect(applyPlatt(fit, 0.5)).toBeCloseTo(19 / 60, 8);
  });

  test('the gradient is zero at the fit (a larger dataset)', () => {
    const scores = Array.from({ length: 50 }, (_, i) => i / 10);
    const labels = scores.map((s, i) => (s + ((i * 7) % 5) / 2 > 3 ? 1 : 0));
    const fit = fitPlatt(scores, labels);
    const positives = labels.filter((l) => l === 1).length;
    const hi = (positives + 1) / (positives + 2);
    const lo = 1 / (labels.length - positives + 2);
    let ga = 0;
    let gb = 0;
    scores.forEach((s, i) => {
      const r = applyPlatt(fit, s) - (labels[i] === 1 ? hi : lo);
      ga += r * s;
      gb += r;
    });
    expect(Math.abs(ga)).toBeLessThan(1e-8);
    expect(Math.abs(gb)).toBeLessThan(1e-8);
    expect(fit.a).toBeGreaterThan(0);
  });

  test('stops once converged on a large set, where a line search can no longer tell steps apart', () => {
    const points = miscalibratedFixture(40_000, 9);
    const fit = fitPlatt(
      points.map((p) => p.score),
      points.map((p) => p.label),
    );
    // Newton converges quadratically: a stall (steps accepted for no decrease) runs to the cap of 100.
    expect(fit.iterations).toBeLessThan(20);
    expect(fit.a).toBeGreaterThan(0);
  });

  test.each([
    { scores: [0, 1], labels: [0, 0.5], message: /binary labels/ },
    { scores: [0], labels: [0, 1], message: /1 scores but 2 labels/ },
    { scores: [], labels: [], message: /at least one point/ },
    { scores: [Number.POSITIVE_INFINITY], labels: [1], message: /not finite/ },
  ])('rejects bad input: $message', ({ scores, labels, message }) => {
    expect(() => fitPlatt(scores, labels)).toThrow(message);
  });
});
