import { describe, expect, test } from 'vitest';
import type { FailureAnalysis } from './analyst-roles.js';
import { referenceEvaluator } from './reference-evaluator.js';
import type { Trajectory } from './trajectory.js';

const failed = (reference: string | undefined, feedback?: string): Trajectory => ({
  id: 't',
  task: 'How far is 3 km in m?',
  transcript: 'answered 3',
  outcome: { pass: false, ...(feedback !== undefined && { feedback }) },
  ...(reference !== undefined && { reference }),
});
const analysis = (answer: string | null): FailureAnalysis => ({
  failure_cause: { title: 'c', description: 'd', content: 'e' },
  lessons: [],
  fix: { description: 'convert units', answer },
});

describe('referenceEvaluator', () => {
  test.each([
    ['matches the reference', failed('3000', 'the answer was wrong'), analysis(' 3000 '), true],
    ['misses it', failed('3000', 'the answer was wrong'), analysis('3'), false],
    ['has no answer', failed('3000'), analysis(null), false],
    ['has no reference to check', failed(undefined), analysis('3000'), undefined],
    // The feedback showed the value the gate checks: an answer equal to it proves only copying.
    [
      'was shown the reference in its feedback',
      failed('3000', 'wrong: the answer is 3000 m'),
      analysis('3000'),
      undefined,
    ],
  ])('should gate a fix that %s', (_name, trajectory, fix, expected) => {
    expect(referenceEvaluator(trajectory, fix)).toBe(expected);
  });
});
