import { describe, expect, it } from 'vitest';
import { countdownCheck } from '../verify/countdown/index.js';
import { verifyMath } from '../verify/math/index.js';
import { answerLine, naiveContainsReward, RLVR_TASK_KINDS, rlvrTasks } from './rlvr-tasks.js';

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
      expect(
        countdownCheck(answerLine(task.reference), task.numbers ?? [], task.target ?? 0, {
          extract: 'hash_line',
        }),
      ).toEqual({ correct: true, expression: task.reference, value: task.target });
    }
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
