import { describe, expect, test } from 'vitest';
import { matchClaimAnswer } from './match-claim-answer.js';

describe('matchClaimAnswer', () => {
  // grounding.md §MARCH step 5 vectors, through the claim pipeline's matcher.
  test.each([
    ['1,200', '1200', true],
    ['3.14', '3.2', true],
    ['10%', '10', true],
    ['5', '6', false],
  ])('numeric %s vs %s -> %s', (expected, answer, match) => {
    expect(matchClaimAnswer('numeric', expected, answer)).toEqual({
      status: 'answered',
      match,
      by: 'numeric',
    });
  });

  test.each([
    ['numeric', '5', 'Cannot answer'],
    ['numeric', '5', 'cannot answer.'],
    ['claims', 'Paris', 'Cannot answer: the documents do not say'],
    ['claims', 'Paris', '   '],
  ] as const)('%s: %j vs %j is a refusal that never matches', (mode, expected, answer) => {
    expect(matchClaimAnswer(mode, expected, answer)).toEqual({
      status: 'cannot_answer',
      match: false,
      by: 'refusal',
    });
  });

  test.each([
    ['Paris', 'paris.', true],
    ['The Eiffel Tower', 'eiffel tower', true],
    ['1889', '1889', true],
    ['Paris', 'the capital of France', undefined],
    ['yes', 'no', undefined],
  ])('claims %j vs %j -> %s (undefined: the judge decides)', (expected, answer, match) => {
    expect(matchClaimAnswer('claims', expected, answer)).toEqual({ status: 'answered', match, by: 'exact' });
  });
});
