import { describe, expect, it } from 'vitest';
import { SampleRowSchema } from './conversation.js';
import { issuesOf } from './errors.js';

const turn = (role: string, content: string) => ({ role, content });
const problems = (row: unknown) => {
  const result = SampleRowSchema.safeParse(row);
  return result.success ? [] : issuesOf(result.error, '(row)').map((i) => `${i.path}: ${i.message}`);
};

describe('SampleRowSchema', () => {
  it('should read a conversation as the earlier turns and the last, assistant turn', () => {
    const messages = [
      turn('system', 's'),
      turn('user', 'q1'),
      turn('assistant', 'a1'),
      turn('user', 'q2'),
      turn('assistant', 'a2'),
    ];
    expect(SampleRowSchema.parse({ id: 7, messages, metadata: { k: 1 } })).toEqual({
      id: '7',
      prompt: messages.slice(0, 4),
      response: 'a2',
      metadata: { k: 1 },
    });
  });

  it('should read a sample row as the Sample schema does', () => {
    expect(SampleRowSchema.parse({ id: 'a', prompt: 'p', response: 'r' })).toEqual({
      id: 'a',
      prompt: 'p',
      response: 'r',
      metadata: {},
    });
    expect(problems({ id: 'a' })).toEqual(['response: Invalid input: expected string, received undefined']);
  });

  it.each<[string, unknown, string[]]>([
    [
      'a conversation that ends with the user',
      [turn('user', 'q'), turn('assistant', 'a'), turn('user', 'q2')],
      ['messages.2.role: the last turn must be the assistant\'s answer, the turn judged (got "user")'],
    ],
    [
      'one turn',
      [turn('assistant', 'a')],
      ['messages: a conversation needs a user turn and the assistant turn to judge'],
    ],
    [
      'no user turn',
      [turn('system', 's'), turn('assistant', 'a')],
      ['messages: no user turn before the assistant turn to judge'],
    ],
    [
      'a turn without content',
      [turn('user', 'q'), { role: 'assistant' }],
      ['messages.1.content: Invalid input: expected string, received undefined'],
    ],
  ])('should name the field of %s', (_, messages, expected) => {
    expect(problems({ id: 'a', messages })).toEqual(expected);
  });

  it('should refuse a row that gives both a conversation and a response', () => {
    expect(
      problems({ id: 'a', messages: [turn('user', 'q'), turn('assistant', 'a')], response: 'r' }),
    ).toEqual([
      'messages: give either "messages" (the conversation, its last turn judged) or "prompt"/"response", not both (this row also has "response")',
    ]);
  });
});
