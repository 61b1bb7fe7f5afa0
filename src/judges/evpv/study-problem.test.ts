import { describe, expect, test } from 'vitest';
import { candidateCorrect } from './candidate-correct.js';
import { EvpvProblemSchema } from './evpv-problem.js';
import { studyProblemOf } from './study-problem.js';

const constraints = { caption: '', key_facts: ['apples: 3'], uncertain: [] };
const problem = (candidates: unknown[]) =>
  EvpvProblemSchema.parse({ id: 'p', question: 'q', constraints, answer: '5', candidates });

describe('studyProblemOf', () => {
  test('should keep unreadable candidates in place, unscored', () => {
    const got = studyProblemOf(
      problem([{ output: 'no steps' }, { output: '<step>a</step><answer>5</answer>', step_scores: [1] }]),
      constraints,
    );
    expect(got).toMatchObject({
      ok: true,
      value: {
        candidates: [
          { steps: null, correct: false },
          { stepScores: [1], correct: true },
        ],
      },
    });
  });

  test.each([
    ['missing step scores', [{ output: '<step>a</step>' }], /candidates\.0\.step_scores: missing/],
    [
      'too few step scores',
      [{ output: '<step>a</step><step>b</step>', step_scores: [1] }],
      /1 score\(s\) for 2 step\(s\)/,
    ],
  ])('should refuse %s, naming the field', (_, candidates, error) => {
    const got = studyProblemOf(problem(candidates), constraints);
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.error).toMatch(error);
  });

  test('should refuse a problem whose correctness is unknown', () => {
    const row = EvpvProblemSchema.parse({
      id: 'p',
      question: 'q',
      constraints,
      candidates: [{ output: '<step>a</step>', step_scores: [1] }],
    });
    const got = studyProblemOf(row, constraints);
    expect(got).toMatchObject({ ok: false, error: expect.stringMatching(/correctness unknown/) });
  });
});

describe('candidateCorrect', () => {
  test.each<[boolean | undefined, string | undefined, string | undefined, boolean | undefined]>([
    [true, '4', '5', true],
    [false, '5', '5', false],
    [undefined, '5.0', '5', true],
    [undefined, ' 5 ', '5', true],
    [undefined, 'Five', 'five', true],
    [undefined, '6', '5', false],
    [undefined, undefined, '5', false],
    [undefined, '5', undefined, undefined],
  ])('flag %s, answer %j vs %j -> %s', (flag, final, answer, expected) => {
    expect(candidateCorrect(flag, final, answer)).toBe(expected);
  });
});

test('a problem needs an image or constraints', () => {
  const got = EvpvProblemSchema.safeParse({ id: 'p', question: 'q', candidates: [{ output: 'x' }] });
  expect(got.success).toBe(false);
  expect(got.error?.issues[0]).toMatchObject({
    path: ['image'],
    message: expect.stringMatching(/"image" or "constraints"/),
  });
});
