import { describe, expect, it } from 'vitest';
import { countdownCheck, evaluateCountdown } from './countdown.js';

describe('countdownCheck', () => {
  const numbers = [3, 7, 25];
  it.each([
    ['<answer>25+3*7</answer>', { correct: true, expression: '25+3*7', value: 46 }],
    ['<think>try</think><answer> 3*7+25 </answer>', { correct: true, expression: '3*7+25', value: 46 }],
    [
      '<answer>(25 - 3) * 7</answer>',
      { correct: false, reason: 'wrong_value', expression: '(25 - 3) * 7', value: 154 },
    ],
    // Early answers do not count: the last block is the answer.
    [
      '<answer>25+3*7</answer> no wait <answer>3+7</answer>',
      { correct: false, reason: 'wrong_numbers', expression: '3+7', value: 10 },
    ],
    [
      '<answer>25+25-3-1</answer>',
      { correct: false, reason: 'wrong_numbers', expression: '25+25-3-1', value: 46 },
    ],
    ['<answer>46</answer>', { correct: false, reason: 'wrong_numbers', expression: '46', value: 46 }],
    ['<answer>25+21</answer>', { correct: false, reason: 'wrong_numbers', expression: '25+21', value: 46 }],
    ['25+3*7', { correct: false, reason: 'no_answer' }],
    ['<answer> </answer>', { correct: false, reason: 'no_answer' }],
    // Code is text: anything but integers, operators and parentheses is unreadable, never run.
    [
      '<answer>25+3*7; process.exit(1)</answer>',
      { correct: false, reason: 'unreadable', expression: '25+3*7; process.exit(1)' },
    ],
    ['<answer>eval("46")</answer>', { correct: false, reason: 'unreadable', expression: 'eval("46")' }],
    ['<answer>25+3*7)</answer>', { correct: false, reason: 'unreadable', expression: '25+3*7)' }],
    ['<answer>7/3+25</answer>', { correct: false, reason: 'unreadable', expression: '7/3+25' }],
  ])('%j → %j', (response, verdict) => {
    expect(countdownCheck(response, numbers, 46)).toEqual(verdict);
  });

  it('uses every number once by default (TinyZero), or each at most once with useAll false', () => {
    expect(countdownCheck('<answer>25+21</answer>', [25, 21, 4], 46)).toMatchObject({
      reason: 'wrong_numbers',
    });
    expect(countdownCheck('<answer>25+21</answer>', [25, 21, 4], 46, { useAll: false })).toMatchObject({
      correct: true,
    });
  });

  it('reads the last "#### " line with extract hash_line', () => {
    expect(
      countdownCheck('#### 3+7\nthen\n#### 25+3*7', numbers, 46, { extract: 'hash_line' }),
    ).toMatchObject({
      correct: true,
    });
    expect(countdownCheck('<answer>25+3*7</answer>', numbers, 46, { extract: 'hash_line' })).toMatchObject({
      reason: 'no_answer',
    });
  });
});

describe('evaluateCountdown', () => {
  it.each([
    ['1+2*3', 7],
    ['(1+2)*3', 9],
    ['8/2/2', 2],
    ['10-2-3', 5],
    ['2×3÷3', 2],
    ['', undefined],
    ['1/0', undefined],
    ['2**3', undefined],
    ['-1+2', undefined],
    ['1e3', undefined],
    ['99999999999999999999*9', undefined],
  ])('%j = %j', (expression, value) => {
    expect(evaluateCountdown(expression)).toBe(value);
  });
});
