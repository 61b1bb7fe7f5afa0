import { describe, expect, test } from 'vitest';
import { type ClaimVotePoint, claimVerdict } from './claim-verdict.js';

const hit: ClaimVotePoint = { point: 1, status: 'answered' };
const wrong: ClaimVotePoint = { point: -1, status: 'answered' };
const none: ClaimVotePoint = { point: -1, status: 'cannot_answer' };
const missing: ClaimVotePoint = { point: -1, status: 'missing' };

describe('claimVerdict', () => {
  test.each([
    ['three matches', [hit, hit, hit], 'fault', 3, 'supported', 'entailment'],
    ['two of three', [hit, hit, wrong], 'fault', 1, 'supported', 'entailment'],
    ['one of three', [hit, wrong, wrong], 'fault', -1, 'fault', 'contradiction'],
    // "Cannot answer" never matches, so an unsupported claim is a fault.
    ['never answered', [none, none, none], 'fault', -3, 'fault', 'neutral'],
    // A missing item counts -1 for that run.
    ['missing in two runs', [hit, missing, missing], 'fault', -1, 'fault', 'neutral'],
    ['tie to fault', [hit, wrong], 'fault', 0, 'fault', 'contradiction'],
    ['tie to supported', [hit, none], 'supported', 0, 'supported', 'entailment'],
    ['mixed misses', [wrong, none, hit], 'fault', -1, 'fault', 'contradiction'],
  ] as const)('%s -> %s', (_, votes, tie, sum, verdict, label) => {
    expect(claimVerdict(votes, tie)).toEqual({ sum, verdict, tie: sum === 0, label });
  });
});
