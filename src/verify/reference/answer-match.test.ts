import { describe, expect, test } from 'vitest';
import { containsMatch, exactMatch, substringMatch, tokenF1 } from './answer-match.js';
import { answerTokens, normalizeAnswer } from './normalize-answer.js';

describe('normalizeAnswer', () => {
  test.each([
    ['The Eiffel Tower!', 'eiffel tower'],
    ['  A   cat  ', 'cat'],
    ['Paris。', 'paris'],
    ['北京', '北京'],
    ['ＡＢＣ', 'abc'],
    ['rock-and-roll', 'rock and roll'],
    ['an apple a day', 'apple day'],
    ['', ''],
    ['Théâtre', 'théâtre'],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeAnswer(input)).toBe(expected);
  });

  test('should split CJK into characters for F1 tokens', () => {
    expect(answerTokens('北京大学 in Beijing')).toEqual(['北', '京', '大', '学', 'in', 'beijing']);
  });
});

describe('exactMatch', () => {
  test.each([
    ['Mary Shelley', ['Mary Shelley'], 'Mary Shelley'],
    ['mary shelley.', ['Mary Shelley'], 'Mary Shelley'],
    ['The answer', ['answer'], 'answer'],
    ['Shelley', ['Mary Shelley', 'Shelley'], 'Shelley'],
    ['Mary W. Shelley', ['Mary Shelley'], null],
    ['', ['x'], null],
  ])('%j against %j matched %j', (prediction, golds, matched) => {
    const m = exactMatch(prediction, golds);
    expect(m.matched).toBe(matched);
    expect(m.match).toBe(matched !== null);
  });

  test('should accept a single gold string', () => {
    expect(exactMatch('Jupiter', 'jupiter').match).toBe(true);
  });
});

describe('containsMatch', () => {
  test.each([
    ['The largest planet is Jupiter.', ['Jupiter'], true],
    ['Parisian cafés', ['Paris'], false],
    ['It is in Paris, France', ['paris france'], true],
    ['anything', [''], false],
    ['答案是北京', ['北京'], false],
    ['答案是 北京', ['北京'], true],
  ])('%j contains %j: %s', (prediction, golds, match) => {
    expect(containsMatch(prediction, golds).match).toBe(match);
  });
});

describe('substringMatch', () => {
  test.each([
    ['#### 146', ['46'], true],
    ['#### 45 47', ['46'], false],
    ['#### 4647', ['46'], true],
    ['Parisian cafés', ['Paris'], true],
    ['anything', [''], false],
    ['答案是北京', ['北京'], true],
  ])('%j holds %j anywhere: %s', (prediction, golds, match) => {
    expect(substringMatch(prediction, golds).match).toBe(match);
  });
});

describe('tokenF1', () => {
  test.each([
    ['Mary Shelley', ['Mary Shelley'], 1, 1, 1],
    ['Mary Wollstonecraft Shelley', ['Mary Shelley'], 0.8, 2 / 3, 1],
    ['the cat sat', ['a dog sat'], 0.5, 0.5, 0.5],
    ['', [''], 1, 1, 1],
    ['', ['x'], 0, 0, 0],
    ['x', [''], 0, 0, 0],
    ['blue', ['red', 'blue sky'], 2 / 3, 1, 0.5],
    ['北京', ['北京市'], 0.8, 1, 2 / 3],
    ['cat cat cat', ['cat'], 0.5, 1 / 3, 1],
  ])('%j vs %j -> F1 %d', (prediction, golds, f1, precision, recall) => {
    const r = tokenF1(prediction, golds);
    expect(r.f1).toBeCloseTo(f1, 10);
    expect(r.precision).toBeCloseTo(precision, 10);
    expect(r.recall).toBeCloseTo(recall, 10);
  });

  test('should report the gold that gave the best F1', () => {
    expect(tokenF1('blue', ['red', 'blue sky']).matched).toBe('blue sky');
  });
});
