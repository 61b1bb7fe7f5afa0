import { describe, expect, it } from 'vitest';
import { keptByConsensus } from './kept-by-consensus.js';

describe('keptByConsensus', () => {
  it.each<[string, Parameters<typeof keptByConsensus>[0], number, boolean]>([
    ['support at the bar is kept', { support: 2 / 3, correct: 'yes' }, 2 / 3, true],
    ['a minority point without evidence is left out', { support: 1 / 3, correct: 'yes' }, 0.5, false],
    [
      'a minority point the evidence supports is kept',
      { support: 1 / 3, correct: 'yes', evidence: 'supports' },
      0.5,
      true,
    ],
    [
      'a minority point the evidence does not cover is left out',
      { support: 1 / 3, correct: 'uncertain', evidence: 'not_covered' },
      0.5,
      false,
    ],
    [
      'a minority point the evidence contradicts stays, for the pitfalls',
      { support: 1 / 3, correct: 'uncertain', evidence: 'contradicts' },
      0.5,
      true,
    ],
    ['a minority point judged wrong stays, for the pitfalls', { support: 0.25, correct: 'no' }, 0.5, true],
    ['min support 0 keeps everything', { support: 0, correct: 'uncertain' }, 0, true],
  ])('%s', (_, item, minSupport, kept) => {
    expect(keptByConsensus(item, minSupport)).toBe(kept);
  });
});
