import { describe, expect, test } from 'vitest';
import { aggregateRubric, combineVotes } from './aggregate-rubric.js';

const g = (value: number, weight = 1) => ({ value, weight });

describe('aggregateRubric', () => {
  // Each expected value worked by hand from the rule in the doc comment.
  test.each([
    ['weighted_mean, equal weights', [g(1), g(0.5), g(0)], 'weighted_mean', 0.5, 0.5],
    // (3·0.8 + 1·0.4) / 4 = 2.8 / 4
    ['weighted_mean, weights 3 and 1', [g(0.8, 3), g(0.4, 1)], 'weighted_mean', 0.5, 0.7],
    // points out of 100: (50·1 + 30·0.5 + 20·0) / 100
    ['weighted_mean, points summing to 100', [g(1, 50), g(0.5, 30), g(0, 20)], 'weighted_mean', 0.5, 0.65],
    // checklist share: yes, no, yes with weights 2, 1, 1 -> 3/4
    ['share of a checklist', [g(1, 2), g(0, 1), g(1, 1)], 'share', 1, 0.75],
    ['min', [g(0.9), g(0.3), g(0.6)], 'min', 0.5, 0.3],
    ['all_must_pass, every grade at the bar', [g(0.5), g(0.7)], 'all_must_pass', 0.5, 1],
    ['all_must_pass, one grade below the bar', [g(0.4), g(1)], 'all_must_pass', 0.5, 0],
    ['all_must_pass on a checklist with one no', [g(1), g(0), g(1)], 'all_must_pass', 1, 0],
    ['all_must_pass on a checklist of yeses', [g(1), g(1)], 'all_must_pass', 1, 1],
  ] as const)('%s', (_name, grades, aggregate, passAt, expected) => {
    expect(aggregateRubric(grades, aggregate, passAt)).toBeCloseTo(expected, 12);
  });

  test('should stay in [0, 1] for grades in [0, 1] whatever the weights', () => {
    for (const aggregate of ['weighted_mean', 'share', 'min', 'all_must_pass'] as const) {
      const score = aggregateRubric([g(0.2, 1e6), g(1, 1e-6), g(0, 3)], aggregate, 0.5);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
  });
});

describe('combineVotes', () => {
  test.each([
    ['majority of three', [0.5, 1, 0.5], 'majority', 0.5],
    ['majority on a tie takes the lower value', [1, 0, 1, 0], 'majority', 0],
    ['majority of one', [0.7], 'majority', 0.7],
    ['mean', [1, 0.5, 0], 'mean', 0.5],
    ['mean of yes, yes, no', [1, 1, 0], 'mean', 2 / 3],
  ] as const)('%s', (_name, values, rule, expected) => {
    expect(combineVotes(values, rule)).toBeCloseTo(expected, 12);
  });
});
