import { describe, expect, it } from 'vitest';
import { verifyMath } from '../verify/math/index.js';
import {
  answerLine,
  countdownCheck,
  evaluateCountdown,
  naiveContainsReward,
  RLVR_TASK_KINDS,
  rlvrTasks,
} from './rlvr-tasks.js';

describe('rlvrTasks', () => {
  it.each(RLVR_TASK_KINDS)('%s: the same seed gives the same tasks, another seed others', (kind) => {
    expect(rlvrTasks(kind, 20, 7)).toEqual(rlvrTasks(kind, 20, 7));
    expect(rlvrTasks(kind, 20, 8)).not.toEqual(rlvrTasks(kind, 20, 7));
    expect(new Set(rlvrTasks(kind, 20, 7).map((t) => t.id)).size).toBe(20);
  });

  it('addition: the reference is the sum, and the math verifier accepts its answer line', () => {
    for (const task of rlvrTasks('addition', 50, 1, { digits: 3 })) {
      const [a, b] = task.prompt.replace('add ', '').split('+').map(Number);
      expect(a).toBeGreaterThanOrEqual(100);
      expect(b).toBeLessThanOrEqual(999);
      expect(Number(task.reference)).toBe((a as number) + (b as number));
      expect(verifyMath(answerLine(task.reference), task.reference).correct).toBe(true);
      expect(verifyMath(answerLine(String(Number(task.reference) + 1)), task.reference).correct).toBe(false);
    }
  });

  it('sorting: the reference is the sorted list', () => {
    for (const task of rlvrTasks('sorting', 50, 2, { length: 6 })) {
      const items = task.prompt.replace('sort ', '').split(' ').map(Number);
      expect(items).toHaveLength(6);
      expect(task.reference).toBe([...items].sort((x, y) => x - y).join(' '));
    }
  });

  it('countdown: every task is solvable, its reference reaching the target with the numbers on offer', () => {
    for (const task of rlvrTasks('countdown', 100, 3)) {
      expect(task.target).toBeGreaterThan(0);
      const [head, listed] = task.prompt.split(' with ');
      expect(head).toBe(`reach ${task.target}`);
      expect((listed ?? '').split(' ').map(Number).sort()).toEqual([...(task.numbers ?? [])].sort());
      expect(countdownCheck(answerLine(task.reference), task.numbers ?? [], task.target ?? 0)).toEqual({
        correct: true,
        value: task.target,
      });
    }
  });
});

describe('countdownCheck', () => {
  const numbers = [3, 7, 25];
  it.each([
    ['#### 25+3*7', { correct: true, value: 46 }],
    ['#### (25 - 3) * 7', { correct: false, reason: 'wrong_value', value: 154 }],
    ['I think\n#### 3*7+25', { correct: true, value: 46 }],
    ['#### 25+25-3-1', { correct: false, reason: 'wrong_numbers', value: 46 }],
    ['#### 46', { correct: false, reason: 'wrong_numbers', value: 46 }],
    ['#### 25+21', { correct: false, reason: 'wrong_numbers', value: 46 }],
    ['no answer line', { correct: false, reason: 'no_answer' }],
    ['#### ', { correct: false, reason: 'no_answer' }],
    ['#### 25+3*7; process.exit(1)', { correct: false, reason: 'unreadable' }],
    ['#### 25+3*7)', { correct: false, reason: 'unreadable' }],
    ['#### 7/3+25', { correct: false, reason: 'unreadable' }],
    ['#### 25+3*7\n#### 3+7', { correct: false, reason: 'wrong_value', value: 10 }],
  ])('%j → %j', (response, verdict) => {
    expect(countdownCheck(response, numbers, 46)).toEqual(verdict);
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
  ])('%j = %j', (expression, value) => {
    expect(evaluateCountdown(expression)).toBe(value);
  });
});

describe('naiveContainsReward', () => {
  it('pays for answer enumeration that the math verifier does not pay for', () => {
    const enumerated = '#### 167 168 169';
    expect(naiveContainsReward(enumerated, '168')).toBe(1);
    expect(verifyMath(enumerated, '168').correct).toBe(false);
    expect(naiveContainsReward('#### 170', '168')).toBe(0);
  });
});
