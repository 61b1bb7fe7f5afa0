import { describe, expect, test } from 'vitest';
import { bonAtK } from './bon-at-k.js';

const c = (score: number | undefined, correct: boolean) => ({ score, correct });

describe('bonAtK', () => {
  test.each<[string, Array<ReturnType<typeof c>>, number, boolean]>([
    ['top candidate correct', [c(0.2, false), c(0.9, true)], 2, true],
    ['top candidate wrong', [c(0.9, false), c(0.2, true)], 2, false],
    ['any tied-top candidate correct counts', [c(0.5, false), c(0.5, true), c(0.1, false)], 3, true],
    ['a tie within float noise is a tie', [c(0.1 + 0.2, false), c(0.3, true)], 2, true],
    ['only the first k are looked at', [c(0.4, false), c(0.2, true), c(0.9, true)], 2, false],
    ['k = 1 is the first candidate', [c(0.1, true), c(0.9, false)], 1, true],
    ['unscored candidates are never selected', [c(undefined, true), c(0.1, false)], 2, false],
    ['no scored candidate is incorrect', [c(Number.NaN, true)], 1, false],
  ])('%s', (_, candidates, k, expected) => {
    expect(bonAtK(candidates, k)).toBe(expected);
  });
});
