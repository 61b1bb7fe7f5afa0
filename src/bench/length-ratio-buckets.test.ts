import { describe, expect, it } from 'vitest';
import { lengthRatioBuckets } from './length-ratio-buckets.js';
import { pairJudgment as pair, usage } from './test-utils/pair-judgment.js';

describe('lengthRatioBuckets', () => {
  it('should set the longer-picked share beside the longer-better share, by length ratio', () => {
    const got = lengthRatioBuckets([
      pair(110, 100, 'first', 'second'), // 1.1×: picked longer; label prefers shorter
      pair(100, 120, 'first', 'first'), // 1.2×: picked shorter; label agrees
      pair(300, 100, 'first', 'first'), // 3×: picked longer, label agrees
      pair(0, 50, 'second', 'none'), // ∞: picked longer, no label (A=B)
      pair(100, 250, 'tie', 'second'), // undecided: left out
      pair(100, 100, 'first', 'first'), // equal lengths: left out
      { key: 'listwise', kind: 'listwise', outcome: 'correct', usage },
    ]);
    expect(
      got.map((b) => [b.from, b.to, b.pairs, b.longer_picked_rate, b.labelled, b.longer_better_rate]),
    ).toEqual([
      [1, 1.25, 2, 0.5, 2, 0],
      [1.25, 1.5, 0, null, 0, null],
      [1.5, 2, 0, null, 0, null],
      [2, 3, 0, null, 0, null],
      [3, null, 2, 1, 1, 1],
    ]);
  });
});
