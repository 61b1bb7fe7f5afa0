import { describe, expect, test } from 'vitest';
import { extractMathAnswer } from './extract-math-answer.js';
import { verifyMath } from './verify-math.js';

/** Responses of every shape the rules read, each rule deciding at least once. */
const responses = [
  'The answer is \\boxed{42}.',
  'First \\boxed{3}, then \\boxed{4}; so \\boxed{7}.',
  'Parts: \\boxed{1} and \\boxed{2}',
  '\\boxed{} is all I have',
  '\\boxed{12} was a step. Final answer: 10,455',
  'So \\boxed{42}. I am confident the answer is correct.',
  'Final answer: 10,455. Check: \\boxed{10455}',
  'Adding them gives 37.\n#### 38',
  'We compute 2+2.\n####\nno line',
  '#### \\frac{1}{2}',
  'The answer is $\\frac{3}{4}$ and that is all',
  'We get $d = \\frac{90}{n}$. Therefore, there are 12 sequences.',
  'We get $x = 5$, checked in 2 steps',
  'So $x^2 + 1$',
  '(B) because it is larger',
  'B. Because reasons',
  'Looking at the options, A and C fail.\nSo B is right',
  'It could be A or B',
  'x = 3',
  '3/4',
  'no numbers here at all',
  'There are 3 apples and 4 pears, 7 fruits.',
  '<think>it is 5</think> The answer is 6.',
  '<think>never closed 5',
  'Answer: (C)',
  'The final answer is $\\boxed{\\dfrac{1}{3}}$',
  '\\fbox{9}',
  'The answer is: 1,000,000',
  '$a$ then $b$ then $12$',
  'Therefore the result is 15%.',
  'It equals 0.5 which is \\(\\frac12\\).',
  'Result \\[ x = 4 \\] done.',
  '**Answer:** 17',
  '####   \n#### 9',
  'The answer is \\boxed{\\{1, 2\\}} or \\boxed{\\{2, 1\\}}',
  // issue 27: plain-text math, markers in other languages, option letters in prose
  'I get 2 + sqrt(5)',
  'So the side is 4*sqrt(3)/9 units.',
  '所以 9 * 2 = 18。答案是 18。',
  '따라서 정답은 18입니다.',
  'Итак, 9 * 2 = 18. Ответ: 18',
  '十八',
  'So I would go with C',
  'It has to be A, not B or D.',
  '\\mathrm{B}\\cdot 3',
  'thus the result is #### 18',
];

describe('extractMathAnswer without all candidates', () => {
  test.each(responses)('decides %j as the full reading does', (response) => {
    for (const choice of [false, true]) {
      for (const lastNumberFallback of [true, false]) {
        const full = extractMathAnswer(response, { choice, lastNumberFallback });
        const { candidates, ...decided } = extractMathAnswer(response, {
          choice,
          lastNumberFallback,
          allCandidates: false,
        });
        const { candidates: all, ...fullDecided } = full;
        expect(decided).toEqual(fullDecided);
        // What it found is what the full reading found first, in the same order.
        expect(all.slice(0, candidates.length)).toEqual(candidates);
      }
    }
  });

  test('stops before the fallback rules once a box, anchor or #### line decides', () => {
    const response = 'We have $x = 5$ and 12 more.\n#### 17';
    expect(extractMathAnswer(response).candidates.map((c) => c.rule)).toEqual([
      'gsm8k',
      'math_span',
      'last_number',
    ]);
    expect(extractMathAnswer(response, { allCandidates: false }).candidates.map((c) => c.rule)).toEqual([
      'gsm8k',
    ]);
  });

  test.each(responses)('verifyMath reaches the same verdict on %j with and without explain', (response) => {
    for (const reference of ['42', '7', '38', '10455', '12', 'B', '\\frac{1}{3}', '17']) {
      const { explanation, ...explained } = verifyMath(response, reference, { explain: true });
      expect(explanation).toBeDefined();
      expect(verifyMath(response, reference)).toEqual(explained);
    }
  });
});

describe('an anchor after the last box', () => {
  test.each([
    ['\\boxed{12} was a step. Final answer: 10,455', 'anchor', '10,455'],
    ['Thus \\boxed{3}. The final answer is (B)', 'anchor', '(B)'],
    // Words after the box talk about the answer; they are not one (a padded or hedged correct answer).
    ['So \\boxed{42}. I am confident the answer is correct.', 'boxed', '42'],
    ['So \\boxed{42}.\n\nThe answer is therefore as shown above.', 'boxed', '42'],
    ['\\boxed{42} The answer is well justified.', 'boxed', '42'],
  ])('%j is read by %s as %j', (response, rule, answer) => {
    const extracted = extractMathAnswer(response, { choice: true });
    expect([extracted.rule, extracted.answer]).toEqual([rule, answer]);
  });
});
