import { describe, expect, test } from 'vitest';
import { marchSolverReward } from './march-solver-reward.js';

describe('marchSolverReward', () => {
  test.each([
    ['zero_tolerance', 0, 0],
    ['zero_tolerance', 1, -1],
    ['zero_tolerance', 7, -1],
    ['proportional', 0, 0],
    ['proportional', 1, -0.1],
    ['proportional', 3, -0.3],
    ['proportional', 13, -1.3],
    ['proportional', 20, -1.3],
  ] as const)('%s with %i fault(s) -> %d', (mode, faults, reward) => {
    expect(marchSolverReward(faults, mode)).toBeCloseTo(reward, 12);
  });

  test('should refuse a fault count that is not a count', () => {
    expect(() => marchSolverReward(-1, 'proportional')).toThrow(/non-negative integer/);
    expect(() => marchSolverReward(1.5, 'zero_tolerance')).toThrow(/non-negative integer/);
  });
});
