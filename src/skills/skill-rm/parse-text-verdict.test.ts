import { describe, expect, test } from 'vitest';
import { parseTextVerdict } from './parse-text-verdict.js';

describe('parseTextVerdict', () => {
  test.each([
    ['A>>B', 'A', 'scaled'],
    ['A>B', 'A', 'scaled'],
    ['A=B', 'tie', 'scaled'],
    ['B>A', 'B', 'scaled'],
    ['B>>A', 'B', 'scaled'],
    ['My verdict: [[A>>B]]', 'A', 'scaled'],
    ['Final: A', 'A', 'final'],
    ['Final: B', 'B', 'final'],
    ['Final: Tie', 'tie', 'final'],
    ['**Final verdict:** b', 'B', 'final'],
    ['[[A]]', 'A', 'brackets'],
    ['[[B]]', 'B', 'brackets'],
    ['[[C]]', 'tie', 'brackets'],
    ['{"winner": "B", "reason": "closer to the reference"}', 'B', 'json'],
    ['```json\n{"verdict": "tie"}\n```', 'tie', 'json'],
    ['{"verdict": "Response A"}', 'A', 'json'],
  ])('should read %j as %s (%s)', (text, verdict, form) => {
    expect(parseTextVerdict(text)).toMatchObject({ verdict, form });
  });

  test.each([
    ['A>B at first, but on reflection B>>A', 'B'],
    ['[[A]] ... Final: B', 'B'],
    ['Final: B\n{"winner": "A"}', 'A'],
    ['{"winner": "A"} then A=B', 'tie'],
    ['Final: Tie, then [[B]]', 'B'],
  ])('should let the last match win in %j', (text, verdict) => {
    expect(parseTextVerdict(text)?.verdict).toBe(verdict);
  });

  test('should keep the strength of a scaled label', () => {
    expect(parseTextVerdict('A>>B')?.strength).toBe('strong');
    expect(parseTextVerdict('B>A')?.strength).toBe('slight');
  });

  test.each([
    'I would rather not say.',
    'A>A',
    'Option AB>BA is odd',
    '{"winner": "neither"}',
    '{"reason": "no verdict field"}',
    'Final: maybe',
    '[[D]]',
  ])('should find no verdict in %j', (text) => {
    expect(parseTextVerdict(text)).toBeUndefined();
  });
});
