import { describe, expect, test } from 'vitest';
import { type DiffPart, tokenizeWords, wordDiff } from './word-diff.js';

const side = (parts: readonly DiffPart[], drop: DiffPart['op']) =>
  parts
    .filter((p) => p.op !== drop)
    .map((p) => p.text)
    .join('');

describe('wordDiff', () => {
  test.each([
    { name: 'equal texts', a: 'the answer is 4', b: 'the answer is 4', parts: [['same', 'the answer is 4']] },
    { name: 'both empty', a: '', b: '', parts: [] },
    { name: 'from empty', a: '', b: 'new text', parts: [['ins', 'new text']] },
    { name: 'to empty', a: 'old text', b: '', parts: [['del', 'old text']] },
    {
      name: 'one word replaced',
      a: 'the answer is 4',
      b: 'the answer is 5',
      parts: [
        ['same', 'the answer is '],
        ['del', '4'],
        ['ins', '5'],
      ],
    },
    {
      name: 'a word inserted in the middle',
      a: 'so x = 2',
      b: 'so then x = 2',
      parts: [
        ['same', 'so '],
        ['ins', 'then '],
        ['same', 'x = 2'],
      ],
    },
    {
      name: 'words removed at both ends',
      a: 'well the result is 7 indeed',
      b: 'the result is 7',
      parts: [
        ['del', 'well '],
        ['same', 'the result is 7'],
        ['del', ' indeed'],
      ],
    },
    {
      name: 'an edit between common words found by the LCS',
      a: 'a b c d e',
      b: 'a x c y e',
      parts: [
        ['same', 'a '],
        ['del', 'b'],
        ['ins', 'x'],
        ['same', ' c '],
        ['del', 'd'],
        ['ins', 'y'],
        ['same', ' e'],
      ],
    },
    {
      name: 'markup is a word like any other',
      a: 'ok <script>alert(1)</script>',
      b: 'ok <b>bold</b>',
      parts: [
        ['same', 'ok '],
        ['del', '<script>alert(1)</script>'],
        ['ins', '<b>bold</b>'],
      ],
    },
  ])('should diff $name', ({ a, b, parts }) => {
    const diff = wordDiff(a, b);
    expect(diff.parts.map((p) => [p.op, p.text])).toEqual(parts);
    expect(diff.bounded).toBe(false);
  });

  test.each([
    ['the answer is 4\n\nBecause 2+2', 'The answer: 4.\nbecause  2 + 2'],
    ['a a a b a', 'a b a a'],
    ['  leading and trailing  ', 'leading\tand trailing'],
  ])('should give each side back exactly: %j vs %j', (a, b) => {
    const { parts } = wordDiff(a, b);
    expect(side(parts, 'ins')).toBe(a);
    expect(side(parts, 'del')).toBe(b);
    // Runs are merged: no two neighbours share an op.
    for (let i = 1; i < parts.length; i++) expect(parts[i]?.op).not.toBe(parts[i - 1]?.op);
  });

  test('should keep the common prefix and suffix and give up on a middle over the bound', () => {
    const a = `start ${'x '.repeat(50)}end`;
    const b = `start ${'y '.repeat(50)}end`;
    const diff = wordDiff(a, b, 100);
    expect(diff.bounded).toBe(true);
    expect(diff.parts.map((p) => p.op)).toEqual(['same', 'del', 'ins', 'same']);
    expect(side(diff.parts, 'ins')).toBe(a);
    expect(side(diff.parts, 'del')).toBe(b);
    expect(wordDiff(a, b).bounded).toBe(false);
  });
});

describe('tokenizeWords', () => {
  test('should split words from whitespace runs', () => {
    expect(tokenizeWords(' a  bc\nd ')).toEqual([' ', 'a', '  ', 'bc', '\n', 'd', ' ']);
  });
});
