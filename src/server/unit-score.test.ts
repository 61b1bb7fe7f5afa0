import { describe, expect, test } from 'vitest';
import { unitScore } from './unit-score.js';

describe('unitScore', () => {
  test.each([
    { reward: 1, clamp: undefined, score: 1 },
    { reward: 0.25, clamp: undefined, score: 0.25 },
    { reward: -1, clamp: undefined, score: 0 },
    { reward: 3, clamp: undefined, score: 1 },
    { reward: -1, clamp: [-1, 1] as const, score: 0 },
    { reward: 0, clamp: [-1, 1] as const, score: 0.5 },
    { reward: 1, clamp: [-1, 1] as const, score: 1 },
    { reward: 5, clamp: [0, 10] as const, score: 0.5 },
    { reward: 2, clamp: [2, 2] as const, score: 1 },
  ])('should map reward $reward with clamp $clamp to $score', ({ reward, clamp, score }) => {
    expect(unitScore(reward, clamp)).toBeCloseTo(score, 12);
  });
});
