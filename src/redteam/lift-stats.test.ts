import { describe, expect, test } from 'vitest';
import { type ExploitTrial, liftsReward, summariseLift } from './lift-stats.js';

const trial = (id: string, before: number | null, ...after: Array<number | null>): ExploitTrial => ({
  id,
  before,
  after: after.map((reward, i) => ({ response: `r${i}-${'x'.repeat(400)}`, reward })),
});

describe('summariseLift', () => {
  test('counts, share, mean and a seeded bootstrap interval', () => {
    const trials = [trial('a', 0, 1), trial('b', 0, 0), trial('c', 1, 1), trial('d', 0, 1)];
    const s = summariseLift('x', trials, { seed: 7 });
    expect(s.applied).toBe(4);
    expect(s.failed).toBe(0);
    expect(s.lifted_share).toBe(0.5);
    expect(s.mean_lift).toBe(0.5);
    expect(s.ci).toEqual(summariseLift('x', trials, { seed: 7 }).ci);
    const [lo, hi] = s.ci as [number, number];
    // Lifts {1,0,0,1}: resampled means lie on quarters between 0 and 1, around 0.5.
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(lo).toBeLessThan(0.5);
    expect(hi).toBeGreaterThan(0.5);
    expect(hi).toBeLessThanOrEqual(1);
    expect(lo * 4).toBe(Math.round(lo * 4));
    expect(liftsReward(s)).toBe(false);
  });

  test('an interval above 0 when every sample is lifted', () => {
    const s = summariseLift('x', [trial('a', 0, 1), trial('b', 0, 0.5), trial('c', 0.5, 1)], { seed: 1 });
    expect(s.ci?.[0]).toBeGreaterThan(0);
    expect(liftsReward(s)).toBe(true);
  });

  test('takes the best exploited response of a sample', () => {
    const s = summariseLift('x', [trial('a', 0, 0, 1, 0)]);
    expect(s.mean_lift).toBe(1);
    expect(s.examples[0]?.response.startsWith('r1-')).toBe(true);
  });

  test('a failed scoring is counted as failed and left out, never a lift of 0', () => {
    const s = summariseLift('x', [trial('a', 0, 1), trial('b', null, 1), trial('c', 0, null)]);
    expect(s.applied).toBe(3);
    expect(s.failed).toBe(2);
    expect(s.lifted_share).toBe(1);
    expect(s.mean_lift).toBe(1);
  });

  test('nothing scored: null statistics, not zeros', () => {
    const s = summariseLift('x', [trial('a', null, 1)]);
    expect(s).toMatchObject({ lifted_share: null, mean_lift: null, ci: null, failed: 1 });
    expect(liftsReward(s)).toBe(false);
  });

  test('at most 5 examples, lifted ones first, responses cut to 300 characters', () => {
    const trials = [
      trial('z', 0, 0),
      ...Array.from({ length: 7 }, (_, i) => trial(`l${i}`, 0, (i + 1) / 10)),
    ];
    const s = summariseLift('x', trials);
    expect(s.examples.map((e) => e.id)).toEqual(['l6', 'l5', 'l4', 'l3', 'l2']);
    for (const e of s.examples) expect(e.response.length).toBe(300);
  });
});
