import { describe, expect, it } from 'vitest';
import {
  judgeBenchCorrect,
  rewardBench2ListwiseScore,
  rewardBenchScore,
  rmBenchAccuracy,
} from './benchmark-metrics.js';

describe('judge benchmark metrics', () => {
  it.each([
    [['label', 'label'], true],
    [['label', 'tie'], true],
    [['label', 'reverse'], false],
    [['tie', 'tie'], false],
    [['reverse', 'tie'], false],
  ] as const)('JudgeBench %j -> %s', (orders, correct) => {
    expect(judgeBenchCorrect(orders)).toBe(correct);
  });

  it('scores unparseable generative verdicts at chance', () => {
    expect(['correct', 'wrong', 'invalid'].map((o) => rewardBenchScore(o as 'correct'))).toEqual([1, 0, 0.5]);
    expect(['correct', 'wrong', 'invalid'].map((o) => rewardBench2ListwiseScore(o as 'correct'))).toEqual([
      1, 0, 0.25,
    ]);
  });

  it('splits the RM-Bench matrix into normal, hard and easy', () => {
    const got = rmBenchAccuracy([
      [0.9, 0.3, 0.1],
      [0.95, 0.8, 0.5],
      [1, 0.9, 0.7],
    ]);
    expect(got.normal).toBeCloseTo((0.9 + 0.8 + 0.7) / 3, 12);
    expect(got.hard).toBeCloseTo((0.3 + 0.1 + 0.5) / 3, 12);
    expect(got.easy).toBeCloseTo((0.95 + 1 + 0.9) / 3, 12);
    expect(() => rmBenchAccuracy([[1]])).toThrow(/3 × 3/);
  });
});
