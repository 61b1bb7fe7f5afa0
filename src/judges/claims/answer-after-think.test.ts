import { describe, expect, test } from 'vitest';
import { answerAfterThink } from './answer-after-think.js';

describe('answerAfterThink', () => {
  test.each([
    ['The total is 12.', 'The total is 12.', false],
    ['<think>add 5 and 7</think>\nThe total is 12.', 'The total is 12.', true],
    ['add 5 and 7</think>The total is 12.', 'The total is 12.', true],
    ['Preface <think>x</think> The total is 12.', 'The total is 12.', true],
  ])('%j -> %j (dropped %s)', (response, text, dropped) => {
    const got = answerAfterThink(response);
    expect(got).toEqual({ text, dropped });
  });

  test.each([
    ['<think>a</think> 1 <think>b</think> 2'],
    ['<think>cut off before the end'],
    ['</think> x </think> y'],
    ['</think> x <think> y'],
  ])('should check %j whole and warn', (response) => {
    const got = answerAfterThink(response);
    expect(got.text).toBe(response.trim());
    expect(got.dropped).toBe(false);
    expect(got.warning).toMatch(/checked whole/);
  });
});
