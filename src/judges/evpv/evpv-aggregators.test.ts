import { describe, expect, test } from 'vitest';
import { aggregateStepScores, allAggregates, type EvpvAggregator } from './evpv-aggregators.js';

describe('EVPV best-of-N aggregators', () => {
  test.each<[EvpvAggregator, number[], number]>([
    // The methods gating vector's output [0.3, 1, −1, 1].
    ['mean', [0.3, 1, -1, 1], 0.325],
    ['weighted', [0.3, 1, -1, 1], 0.33],
    ['streak', [0.3, 1, -1, 1], 0.325],
    ['geometric', [0.3, 1, -1, 1], Math.sqrt(0.1)],
    ['first_error', [0.3, 1, -1, 1], 0.5],
    // p = 0 on the first step: it earns nothing, so streak and first-error stop at once.
    ['streak', [0, 1, -1, 1], 0],
    ['first_error', [0, 1, -1, 1], 0],
    ['mean', [0, 1, -1, 1], 0.25],
    // All correct.
    ['mean', [1, 1, 1], 1],
    ['weighted', [1, 1, 1], 1],
    ['streak', [1, 1, 1], 1],
    ['geometric', [1, 1, 1], 1],
    ['first_error', [1, 1, 1], 1],
    // All wrong.
    ['mean', [-1, -1], -1],
    ['geometric', [-1, -1], 0.1],
    ['first_error', [-1, -1], 0],
    // Position weighting: a late error costs more than an early one.
    ['weighted', [-1, 1, 1], 4 / 6],
    ['weighted', [1, 1, -1], 0],
  ])('%s of %j = %s', (aggregator, scores, expected) => {
    expect(aggregateStepScores(scores, aggregator)).toBeCloseTo(expected, 9);
  });

  test('should refuse a candidate without steps rather than score it', () => {
    expect(() => aggregateStepScores([], 'mean')).toThrow(/without steps/);
  });

  test('should give all five at once', () => {
    expect(Object.keys(allAggregates([1]))).toEqual([
      'mean',
      'weighted',
      'streak',
      'geometric',
      'first_error',
    ]);
  });
});
