import { describe, expect, test } from 'vitest';
import { locateQuote } from './locate-quote.js';

const text = 'Fold it in half.\nThen make   five pleats along the edge.';

describe('locateQuote', () => {
  test.each([
    ['the start', '', 0],
    ['an exact quote', 'Fold it in half.', 16],
    ['a quote with other whitespace and case', 'then make five PLEATS', 40],
    ['a quote with surrounding spaces', '  along the edge.  ', text.length],
    ['a quote not in the text', 'Steam for ten minutes', null],
  ])('should locate %s', (_name, quote, expected) => {
    expect(locateQuote(text, quote)).toBe(expected);
  });
});
