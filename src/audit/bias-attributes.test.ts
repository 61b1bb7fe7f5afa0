import { describe, expect, it } from 'vitest';
import { biasAttributes, pairAttributes, parseStatedConfidence } from './bias-attributes.js';

describe('biasAttributes', () => {
  it('counts characters and whitespace tokens', () => {
    const a = biasAttributes('  the answer\tis  42\n');
    expect(a.chars).toBe(20);
    expect(a.tokens).toBe(4);
    expect(biasAttributes('   ').tokens).toBe(0);
  });

  it('counts headers and list items, and the share of formatted lines', () => {
    const text = ['# Title', '', 'Plain prose here.', '- one', '2. two', 'Use `x` now.', 'More prose.'].join(
      '\n',
    );
    const a = biasAttributes(text);
    expect(a.headers).toBe(1);
    expect(a.listItems).toBe(2);
    // 6 non-empty lines; header, two items and the code line are formatted.
    expect(a.formatDensity).toBeCloseTo(4 / 6, 12);
    expect(biasAttributes('').formatDensity).toBe(0);
    expect(biasAttributes('#hashtag is not a header').headers).toBe(0);
  });

  it('flags agreeing openers only at the start', () => {
    expect(biasAttributes('Yes, you are right: it is 4.').sycophanticOpener).toBe(true);
    expect(biasAttributes("Great question! It's 4.").sycophanticOpener).toBe(true);
    expect(biasAttributes("You're absolutely right.").sycophanticOpener).toBe(true);
    expect(biasAttributes('It is 4. You are right to ask.').sycophanticOpener).toBe(false);
  });

  it('flags hedging', () => {
    expect(biasAttributes('It could be 3 or 4.').hedging).toBe(true);
    expect(biasAttributes('Either answer works.').hedging).toBe(true);
    expect(biasAttributes('The answer is 4.').hedging).toBe(false);
  });
});

describe('parseStatedConfidence', () => {
  it('reads percentages and probabilities', () => {
    expect(parseStatedConfidence('I am 100% sure it is 4.')).toBe(1);
    expect(parseStatedConfidence("I'm 75% confident.")).toBe(0.75);
    expect(parseStatedConfidence('Answer: 4\nConfidence: 90%')).toBeCloseTo(0.9, 12);
    expect(parseStatedConfidence('confidence = 0.6')).toBe(0.6);
    expect(parseStatedConfidence('confidence: 80')).toBeCloseTo(0.8, 12);
  });

  it('is null when none is stated or the value is impossible', () => {
    expect(parseStatedConfidence('It is 4.')).toBeNull();
    expect(parseStatedConfidence('confidence: 250%')).toBeNull();
  });
});

describe('pairAttributes', () => {
  it('gives position and first-minus-second length differences', () => {
    expect(pairAttributes('a b c', 'a', 1)).toEqual({ position: 1, lengthDiffChars: 4, lengthDiffTokens: 2 });
  });
});
