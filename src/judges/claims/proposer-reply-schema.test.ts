import { describe, expect, test } from 'vitest';
import { proposerReplySchema } from './proposer-reply-schema.js';

const reply = (expected: string | number, question = 'What was the total?') => ({
  claims: [{ question, expected }],
});

describe('proposerReplySchema', () => {
  test.each(['1200', '1,200', '15%', 300, '-2.5', '5k', '.5', ' 42 '])(
    'numeric mode should accept %j as a plain number',
    (expected) => {
      expect(proposerReplySchema('numeric').safeParse(reply(expected)).success).toBe(true);
    },
  );

  test.each([
    ['about twelve hundred', /must be a plain number/],
    ['12 apples', /must be a plain number/],
    ['', /empty "expected"/],
  ])('numeric mode should reject %j', (expected, message) => {
    const got = proposerReplySchema('numeric').safeParse(reply(expected));
    expect(got.success).toBe(false);
    expect(got.error?.issues[0]?.message).toMatch(message);
  });

  test('claims mode should accept words, and both modes reject a question that states its value', () => {
    expect(proposerReplySchema('claims').safeParse(reply('Paris')).success).toBe(true);
    const leaks = [
      proposerReplySchema('claims').safeParse(reply('Paris', 'Is Acme based in Paris?')),
      proposerReplySchema('numeric').safeParse(reply('1200', 'Was the total 1,200?')),
    ];
    for (const got of leaks)
      expect(got.error?.issues[0]?.message).toMatch(/must not contain its expected value/);
  });

  test('should list every problem in one issue', () => {
    const got = proposerReplySchema('numeric').safeParse({
      claims: [
        { question: 'A?', expected: 'x' },
        { question: ' ', expected: '3' },
      ],
    });
    expect(got.error?.issues).toHaveLength(1);
    expect(got.error?.issues[0]?.message).toMatch(/claim 1: .*plain number.*claim 2 has an empty "question"/);
  });
});
