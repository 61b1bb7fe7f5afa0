import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval } from '../core/bootstrap-mean.js';
import { claimVerdict, MIN_SEEDS, pairedTInterval, verdictLine } from './claim-verdict.js';
import { regularizedBeta, studentTCdf, studentTQuantile } from './student-t.js';

describe('studentTQuantile', () => {
  // Two-sided 95% critical values from any t table.
  it.each([
    [1, 12.706],
    [2, 4.303],
    [3, 3.182],
    [4, 2.776],
    [9, 2.262],
    [30, 2.042],
    [1000, 1.962],
  ])('t(0.975, %i) = %f', (df, t) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(t, 3);
  });

  it('is the inverse of the CDF, and odd around 0.5', () => {
    for (const df of [1, 2.5, 7, 40]) {
      for (const p of [0.01, 0.2, 0.5, 0.9, 0.995]) {
        expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 9);
        expect(studentTQuantile(1 - p, df)).toBeCloseTo(-studentTQuantile(p, df), 9);
      }
    }
  });

  it('refuses p outside (0, 1) and df ≤ 0', () => {
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(0.5, 0)).toThrow(RangeError);
  });
});

describe('regularizedBeta', () => {
  it.each([
    [0.5, 2, 2, 0.5],
    [0.3, 1, 1, 0.3],
    [0.2, 2, 3, 0.1808],
    [0.9, 0.5, 0.5, 0.7951672353],
  ])('I_%f(%f, %f) = %f', (x, a, b, expected) => {
    expect(regularizedBeta(x, a, b)).toBeCloseTo(expected, 6);
  });
});

describe('claimVerdict', () => {
  const claim = {
    claim: 'A beats B',
    metric: 'accuracy, A − B, paired by seed',
    direction: 'greater' as const,
  };

  it('the worked vector of the evidence standard: [0.02, −0.01, 0.03] is inconclusive', () => {
    const v = claimVerdict({ ...claim, effects: [0.02, -0.01, 0.03] });
    expect(v.status).toBe('inconclusive');
    expect(v.effect).toBeCloseTo(0.0133, 4);
    expect(v.ci[0]).toBeCloseTo(-0.0384, 4);
    expect(v.ci[1]).toBeCloseTo(0.065, 4);
    expect(v.seeds).toBe(3);
  });

  it.each([
    ['greater', [0.05, 0.06, 0.04, 0.05], 'held'],
    ['greater', [-0.05, -0.06, -0.04, -0.05], 'not_held'],
    ['less', [-0.05, -0.06, -0.04, -0.05], 'held'],
    ['less', [0.05, 0.06, 0.04, 0.05], 'not_held'],
    ['less', [0.05, -0.06, 0.04, -0.05], 'inconclusive'],
  ] as const)('direction %s, effects %j → %s', (direction, effects, status) => {
    expect(claimVerdict({ ...claim, direction, effects }).status).toBe(status);
  });

  it(`is too_small below ${MIN_SEEDS} seeds, below the documented minimum, or with a non-finite effect`, () => {
    const two = claimVerdict({ ...claim, effects: [0.5, 0.6] });
    expect(two).toMatchObject({ status: 'too_small', seeds: 2 });
    expect(two.why).toContain('at least 3');
    const smoke = claimVerdict({
      ...claim,
      effects: [0.5, 0.6, 0.7],
      belowMinimum: '5 steps; verdicts need ≥ 200',
    });
    expect(smoke).toMatchObject({ status: 'too_small', why: '5 steps; verdicts need ≥ 200' });
    expect(smoke.ci.every(Number.isNaN)).toBe(true);
    const diverged = claimVerdict({ ...claim, effects: [0.5, Number.NaN, 0.7, 0.6] });
    expect(diverged.status).toBe('too_small');
    expect(diverged.why).toContain('1 of 4 seeds');
  });

  it('a large but noisy effect is not held: the interval decides, not the mean', () => {
    const v = claimVerdict({ ...claim, effects: [0.9, -0.7, 0.8] });
    expect(v.effect).toBeGreaterThan(0);
    expect(v.status).toBe('inconclusive');
  });

  it('bootstrap intervals are seeded and contain the mean', () => {
    const effects = [0.1, 0.12, 0.08, 0.11, 0.09];
    const a = bootstrapMeanInterval(effects, { seed: 3 });
    expect(bootstrapMeanInterval(effects, { seed: 3 })).toEqual(a);
    expect(a[0]).toBeLessThan(0.1);
    expect(a[1]).toBeGreaterThan(0.1);
    expect(claimVerdict({ ...claim, effects }, { method: 'bootstrap' }).status).toBe('held');
  });

  it('pairedTInterval needs two values', () => {
    expect(pairedTInterval([1]).every(Number.isNaN)).toBe(true);
  });

  it('verdictLine says the status, effect, interval and seeds, or why there is none', () => {
    expect(verdictLine(claimVerdict({ ...claim, effects: [0.02, -0.01, 0.03] }))).toBe(
      'A beats B: inconclusive — effect +0.0133 [-0.0384, +0.0650] over 3 seeds (accuracy, A − B, paired by seed)',
    );
    expect(verdictLine(claimVerdict({ ...claim, effects: [1] }))).toBe(
      'A beats B: too small — 1 seed(s); a verdict needs at least 3',
    );
  });
});
