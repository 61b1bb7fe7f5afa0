import { describe, expect, it } from 'vitest';
import { type MemberAnswer, majorityDecision, scoreSpread, weightedDecision } from './panel-decision.js';

const answer = (name: string, score: number, weight = 1): MemberAnswer => ({
  name,
  score,
  verdict: score === 1 ? 'pass' : score === 0 ? 'fail' : 'abstain',
  weight,
});

describe('majorityDecision', () => {
  it('should take the majority verdict, scored at the mean of its members', () => {
    expect(majorityDecision([answer('a', 1), answer('b', 0), answer('c', 1)])).toEqual({
      score: 1,
      verdict: 'pass',
      reason: 'majority pass (pass 2, fail 1)',
    });
  });

  it('should call a tie an abstain at the mean of every member, whatever their order', () => {
    const tie = [answer('a', 1), answer('b', 0)];
    expect(majorityDecision(tie)).toEqual({ score: 0.5, verdict: 'abstain', reason: 'tie (pass 1, fail 1)' });
    expect(majorityDecision([...tie].reverse()).score).toBe(0.5);
  });
});

describe('weightedDecision', () => {
  it('should weight the mean and the vote by the members that answered', () => {
    // (3·1 + 1·0) / 4 = 0.75; pass holds weight 3 against fail's 1.
    expect(weightedDecision([answer('strong', 1, 3), answer('weak', 0, 1)])).toMatchObject({
      score: 0.75,
      verdict: 'pass',
    });
    expect(weightedDecision([answer('a', 1, 2), answer('b', 0, 2)]).verdict).toBe('abstain');
  });
});

describe('scoreSpread', () => {
  it('should be the largest score less the smallest', () => {
    expect(scoreSpread([answer('a', 0.5), answer('b', 1), answer('c', 0)])).toBe(1);
    expect(scoreSpread([answer('a', 0.5)])).toBe(0);
  });
});
