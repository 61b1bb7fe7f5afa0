import { describe, expect, test } from 'vitest';
import { parseTextScore, pointwiseScore } from './pointwise-score.js';

describe('pointwiseScore', () => {
  test.each([
    [{ score: 0.8 }, { score: 0.8, from: 'score' }],
    [{ score: 1.7 }, { score: 1, from: 'score', clampedFrom: 1.7 }],
    [{ score: -0.2 }, { score: 0, from: 'score', clampedFrom: -0.2 }],
    [
      { satisfied: 3, total: 4 },
      { score: 0.75, from: 'checklist' },
    ],
    [
      { score: 0.2, satisfied: 3, total: 4 },
      { score: 0.2, from: 'score' },
    ],
    [
      { satisfied: 5, total: 4 },
      { score: 1, from: 'checklist', clampedFrom: 1.25 },
    ],
  ])('should score %j as %j', (answer, expected) => {
    expect(pointwiseScore(answer)).toEqual(expected);
  });

  test.each([[{}], [{ satisfied: 3 }], [{ satisfied: 1, total: 0 }], [{ score: Number.NaN }]])(
    'should give no score for %j',
    (answer) => {
      expect(pointwiseScore(answer)).toBeUndefined();
    },
  );
});

describe('parseTextScore', () => {
  test.each([
    ['Score: 0.75', { score: 0.75 }],
    ['score: 0.2 at first; Score: 0.9', { score: 0.9 }],
    ['{"satisfied": 3, "total": 4}', { satisfied: 3, total: 4 }],
    ['Score: 0.1 then {"score": 0.6}', { score: 0.6 }],
  ])('should read %j', (text, expected) => {
    expect(parseTextScore(text)).toEqual(expected);
  });

  test('should find no score in prose', () => {
    expect(parseTextScore('I would rather not say.')).toBeUndefined();
  });
});
