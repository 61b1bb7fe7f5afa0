import { describe, expect, test } from 'vitest';
import { proposerReward, solveRate } from './proposer-reward.js';

// The methods note's vector: solver rewards [1, 0, 0.25, 0, 0]. Two of the five rollouts have a
// reward above 0, so s = 0.4 by the note's own definition; 1 − s = 0.6 and 4s(1 − s) = 0.96. (The
// note writes "s = 0.6 -> 0.4", which counts the failed rollouts instead; 4s(1 − s) is symmetric,
// so 0.96 holds either way. We follow the definition.)
describe('proposerReward', () => {
  test.each([
    [[1, 0, 0.25, 0, 0], 0.4, 0.6, 0.96],
    [[0, 0, 0, 0, 0], 0, 1, 0],
    [[1, 1, 1, 1, 1], 1, 0, 0],
    [[1, 0], 0.5, 0.5, 1],
    [[0.25], 1, 0, 0],
  ])(
    'should turn solver rewards %j into s = %d, 1 − s = %d, 4s(1 − s) = %d',
    (rewards, s, inverse, balanced) => {
      expect(solveRate(rewards)).toBeCloseTo(s, 12);
      expect(proposerReward(rewards)).toBeCloseTo(inverse, 12);
      expect(proposerReward(rewards, 'inverse')).toBeCloseTo(inverse, 12);
      expect(proposerReward(rewards, 'balanced')).toBeCloseTo(balanced, 12);
    },
  );

  test('should refuse an empty list of rollouts instead of inventing s', () => {
    expect(() => proposerReward([])).toThrow(RangeError);
  });
});
