import { describe, expect, test } from 'vitest';
import { globMatcher } from './glob-matcher.js';

describe('globMatcher', () => {
  test.each([
    [['gsm8k'], 'gsm8k', true],
    [['gsm8k'], 'gsm8k2', false],
    [['math*'], 'math_dapo', true],
    [['*math'], 'openmath', true],
    [['a.b'], 'axb', false],
    // Case does not matter: trainers write hub names as the hub spells them.
    [['math*'], 'MATH-500', true],
    [['gsm8k'], 'GSM8K', true],
    // A pattern without "/" matches the name after the hub organisation, or a bare name.
    [['gsm8k'], 'openai/gsm8k', true],
    [['math*'], 'lighteval/MATH', true],
    [['taco*'], 'likaixin/TACO-verified', true],
    [['math*'], 'math-org/code_contests', false],
    [['*math'], 'lighteval/MATH', true],
    // A pattern with "/" matches the whole name only.
    [['openai/gsm8k'], 'openai/gsm8k', true],
    [['openai/gsm8k'], 'gsm8k', false],
    [['openai/*'], 'OpenAI/gsm8k', true],
    [['openai/*'], 'other/gsm8k', false],
  ])('%j matches %s: %s', (patterns, value, expected) => {
    expect(globMatcher(patterns)(value)).toBe(expected);
  });
});
