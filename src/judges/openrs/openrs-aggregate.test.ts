import { describe, expect, it } from 'vitest';
import { unanimousWin } from '../genrm-votes.js';
import { aggregateOpenrs, type CriterionComparison, combineOrders } from './openrs-aggregate.js';

const c = (type: CriterionComparison['type'], winner: CriterionComparison['winner'], strength: number) => ({
  type,
  winner,
  strength,
});

describe('aggregateOpenrs', () => {
  it.each<[string, CriterionComparison[], number, 'A' | 'B' | 'tie', boolean]>([
    // judges.md vector: core A+2 and highlight B+1 -> (10 - 1) / 6 = 1.5 -> A
    ['core A+2, highlight B+1', [c('core', 'A', 2), c('highlight', 'B', 1)], 1.5, 'A', false],
    // judges.md vector: a hard flaw {B, 2} with core items favouring A -> -2
    [
      'hard flaw B+2 overrides core',
      [c('hard_flaw', 'B', 2), c('core', 'A', 2), c('core', 'A', 1)],
      -2,
      'B',
      true,
    ],
    ['hard flaws sum', [c('hard_flaw', 'B', 2), c('hard_flaw', 'A', 1), c('core', 'A', 2)], -1, 'B', true],
    [
      'zero-strength criteria drop out with their weight',
      [c('core', 'A', 0), c('important', 'B', 1)],
      -1,
      'B',
      false,
    ],
    ['"same" weighs in at zero', [c('core', 'same', 1), c('important', 'A', 2)], 4 / 7, 'A', false],
    ['a zero hard flaw does not decide', [c('hard_flaw', 'same', 2), c('highlight', 'A', 1)], 1, 'A', false],
    ['nothing counted is a tie', [c('core', 'A', 0)], 0, 'tie', false],
    ['balanced is a tie', [c('important', 'A', 1), c('important', 'B', 1)], 0, 'tie', false],
    ['empty is a tie', [], 0, 'tie', false],
  ])('%s', (_, criteria, score, winner, hard) => {
    const got = aggregateOpenrs(criteria);
    expect(got.score).toBeCloseTo(score, 12);
    expect(got.winner).toBe(winner);
    expect(got.decidedByHardFlaw).toBe(hard);
  });
});

describe('combineOrders (symmetric)', () => {
  it.each([
    [1.5, -1, 'first'],
    [-0.5, 2, 'second'],
    [0, 0, 'tie'],
    [1, 1, 'inconsistent'],
    [-1, -1, 'inconsistent'],
    [1, 0, 'inconsistent'],
    [0, -1, 'inconsistent'],
  ] as const)('forward %d, backward %d -> %s', (f, b, verdict) => {
    expect(combineOrders(f, b)).toBe(verdict);
  });
});

describe('unanimousWin (Writing-Zero)', () => {
  it.each([
    [
      [
        { rollout: 8, opponent: 6 },
        { rollout: 7, opponent: 5 },
      ],
      true,
    ],
    [
      [
        { rollout: 8, opponent: 6 },
        { rollout: 5, opponent: 7 },
      ],
      false,
    ],
    [[{ rollout: 8, opponent: 8 }], false],
    [[{ rollout: 9, opponent: 1 }, { invalid: 'no scores in the output' }], false],
    [[], false],
  ] as const)('%j -> %s', (comparisons, win) => {
    expect(unanimousWin(comparisons)).toBe(win);
  });
});
