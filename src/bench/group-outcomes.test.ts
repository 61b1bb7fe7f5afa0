import { describe, expect, it } from 'vitest';
import type { BenchJudgment } from './bench-record.js';
import { groupOutcomes } from './group-outcomes.js';
import { pairJudgment as pair, usage } from './test-utils/pair-judgment.js';

describe('groupOutcomes', () => {
  it('should count each group judgments by outcome, groups in the order they appear', () => {
    const record = (group: string, judgments: BenchJudgment[]) =>
      ({ id: group, dataset: 'd', status: 'ok', group, judgments }) as const;
    expect(
      groupOutcomes([
        record('b', [pair(1, 2, 'first', 'first'), pair(1, 2, 'first', 'second')]),
        record('a', [{ key: 'x', kind: 'ratings', outcome: 'invalid', usage }]),
        record('b', [pair(1, 2, 'tie', 'first')]),
      ]),
    ).toEqual([
      { group: 'b', judgments: 3, correct: 1, wrong: 1, tie: 1, invalid: 0 },
      { group: 'a', judgments: 1, correct: 0, wrong: 0, tie: 0, invalid: 1 },
    ]);
  });
});
