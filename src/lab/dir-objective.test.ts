import { describe, expect, it } from 'vitest';
import { gaussianPairs } from '../core/test-utils/gaussian-pairs.js';
import {
  bradleyTerryLoss,
  classifierCrossEntropy,
  clubEstimate,
  dirLoss,
  gaussianClubEstimate,
  lengthBiasLabels,
} from './dir-objective.js';
import { CLUB_WORKED_VECTORS } from './test-utils/dir-worked-vectors.js';

// Worked vectors from ../shared/methods/rl.md, "DIR".
describe('DIR objective', () => {
  it.each([
    [[2], 0.126928],
    [[0], Math.LN2], // 0.693147
    [[2, 0], (0.126928 + Math.LN2) / 2],
    [[800], 0],
    [[-800], 800],
  ])('Bradley–Terry loss of Δr = %j is %f', (deltas, loss) => {
    expect(bradleyTerryLoss(deltas)).toBeCloseTo(loss, 6);
  });

  it.each(CLUB_WORKED_VECTORS.map((v) => [...v]))('CLUB estimate, %s', (_, q, labels, value) => {
    expect(clubEstimate(q, labels)).toBeCloseTo(value, 6);
  });

  it("q's cross-entropy on the two-sample vector is 0.105361", () => {
    expect(
      classifierCrossEntropy(
        [
          [0.9, 0.1],
          [0.1, 0.9],
        ],
        [0, 1],
      ),
    ).toBeCloseTo(0.105361, 6);
  });

  it('L_BT + λ·Î with Δr = [2, 0], the two-sample q and λ = 1 is 1.508650', () => {
    expect(
      dirLoss(
        [2, 0],
        [
          [0.9, 0.1],
          [0.1, 0.9],
        ],
        [0, 1],
        1,
      ),
    ).toBeCloseTo(1.50865, 5);
  });

  it('length labels: len_c = [120,80,100], len_r = [100,90,100] → A = [1,0,0]', () => {
    expect(lengthBiasLabels([120, 80, 100], [100, 90, 100])).toEqual([1, 0, 0]);
  });

  it('refuses q and labels of different lengths', () => {
    expect(() => clubEstimate([[0.5, 0.5]], [0, 1])).toThrow(RangeError);
  });
});

describe('gaussianClubEstimate', () => {
  it.each([0.2, 0.5, 0.8, 0.95])(
    'bounds the true MI from above at ρ = %f, near its population value',
    (rho) => {
      const { x, y } = gaussianPairs(rho, 20_000, 11);
      const trueMi = -0.5 * Math.log(1 - rho * rho);
      const club = gaussianClubEstimate(x, y);
      expect(club).toBeGreaterThanOrEqual(trueMi);
      // Near ρ²/(1−ρ²): within 0.01, or 5% where it is large (9.26 at ρ = 0.95, sampled more loosely).
      const population = (rho * rho) / (1 - rho * rho);
      expect(Math.abs(club - population)).toBeLessThan(Math.max(0.01, 0.05 * population));
    },
  );

  it('is about 0 for independent pairs', () => {
    const { x, y } = gaussianPairs(0, 20_000, 12);
    expect(Math.abs(gaussianClubEstimate(x, y))).toBeLessThan(0.01);
  });
});
