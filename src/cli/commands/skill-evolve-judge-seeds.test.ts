import { describe, expect, test } from 'vitest';
import { heldOutAcrossSeeds } from './skill-evolve-judge-seeds.js';

describe('heldOutAcrossSeeds', () => {
  test('should pair the held-out gain by seed into a paired-t verdict, with each side’s mean', () => {
    const got = heldOutAcrossSeeds(
      [
        { seed: 0, valid: true, before: 0.5, after: 0.75, gain: 0.25 },
        { seed: 1, valid: true, before: 0.25, after: 0.75, gain: 0.5 },
        { seed: 2, valid: false, gain: 0 },
      ],
      3,
    );
    // Gains 0.25, 0.5, 0: mean 0.25, sd 0.25, t(0.975, 2) = 4.3027 → half-width 0.6211.
    expect(got.verdict.status).toBe('inconclusive');
    expect(got.verdict.effect).toBeCloseTo(0.25, 10);
    expect(got.verdict.ci[0]).toBeCloseTo(0.25 - 0.6211, 3);
    expect(got.verdict.ci[1]).toBeCloseTo(0.25 + 0.6211, 3);
    // A seed with no valid skill judged no held-out pair: its sides are not in the means.
    expect(got.before).toMatchObject({ mean: 0.375, seeds: 2 });
    expect(got.after).toMatchObject({ mean: 0.75, seeds: 2 });
  });

  test('should give too_small, saying why, when fewer loops ran than asked or fewer than 3', () => {
    const one = [{ seed: 0, valid: true, before: 0.5, after: 1, gain: 0.5 }];
    expect(heldOutAcrossSeeds(one, 1).verdict).toMatchObject({ status: 'too_small', seeds: 1 });
    expect(heldOutAcrossSeeds(one, 3).verdict.why).toBe(
      '1 of 3 split seeds ran (the loop stopped: its models never answered)',
    );
  });
});
