import { describe, expect, test } from 'vitest';
import { joinLabels } from './join-labels.js';
import { labelValue } from './label-value.js';

describe('labelValue', () => {
  test.each([
    [true, 1],
    [false, 0],
    [0, 0],
    [1, 1],
    [0.25, 0.25],
    [1.5, undefined],
    [-0.1, undefined],
    ['1', undefined],
    [null, undefined],
    [Number.NaN, undefined],
  ])('%j → %j', (raw, value) => {
    expect(labelValue(raw)).toBe(value);
  });
});

describe('joinLabels', () => {
  test('pairs by id and names every row left out', () => {
    const joined = joinLabels(
      [
        { id: 'a', score: 0.9, place: 's.jsonl:1' },
        { id: 'b', score: null, place: 's.jsonl:2' },
        { id: 'c', score: 0.2, place: 's.jsonl:3' },
        { id: 'd', score: 0.4, place: 's.jsonl:4' },
        { id: 'a', score: 0.1, place: 's.jsonl:5' },
      ],
      [
        { id: 'a', label: 1, place: 'l.jsonl:1' },
        { id: 'b', label: 0, place: 'l.jsonl:2' },
        { id: 'a', label: 0, place: 'l.jsonl:3' },
        { id: 'x', label: 1, place: 'l.jsonl:4' },
        { id: 'd', label: 0, place: 'l.jsonl:5' },
      ],
    );
    expect(joined.points).toEqual([
      { id: 'a', score: 0.9, label: 1 },
      { id: 'd', score: 0.4, label: 0 },
    ]);
    expect(joined.counts).toEqual({
      unlabelled: 1,
      unscored: 1,
      orphan_labels: 1,
      duplicate_labels: 1,
      duplicate_scores: 1,
    });
    expect(joined.problems).toEqual([
      'l.jsonl:3:id: "a" is labelled already at l.jsonl:1; the first label is kept',
      's.jsonl:2:score: "b" has no score (its scoring failed)',
      's.jsonl:3:id: no label for "c"',
      's.jsonl:5:id: "a" is scored already at s.jsonl:1; the first score is kept',
      'l.jsonl:4:id: no score for "x"',
    ]);
  });
});
