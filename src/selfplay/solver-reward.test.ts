import { describe, expect, test } from 'vitest';
import type { ChatModel } from '../llm/index.js';
import { scoreSolverAnswer } from './score-solver-answer.js';
import { solverReward } from './solver-reward.js';

describe('solverReward', () => {
  test.each([
    [0, false, 0],
    [0, true, 0],
    [1, true, 1],
    [1, false, 0],
    [10, true, 1],
    [11, true, 0.25],
    [11, false, 0],
  ])('should give %i answer tag(s), correct=%s → %d', (tags, correct, expected) => {
    expect(solverReward(tags, correct)).toBe(expected);
  });
});

/** A judge that must not be asked: exact matches and missing answers are decided in code. */
const noJudge: ChatModel = {
  name: 'no-judge',
  complete: async () => {
    throw new Error('the judge was called');
  },
};

describe('scoreSolverAnswer without a judge call', () => {
  test.each([
    ['<answer>The Paris</answer>', ['paris'], 1, 'exact'],
    ['<search>x</search>\n<answer>Lyon</answer>\n<answer>the Paris.</answer>', ['Paris'], 1, 'exact'],
    ['I think it is Paris.', ['Paris'], 0, 'none'],
    [`${'<answer>guess</answer>'.repeat(11)}<answer>Paris</answer>`, ['Paris'], 0.25, 'exact'],
  ])('should score %j against %j as %d', async (text, golds, reward, matchedBy) => {
    const got = await scoreSolverAnswer(text, { question: 'q', golds }, noJudge);
    expect(got).toMatchObject({ status: 'ok', reward, matchedBy });
  });
});
