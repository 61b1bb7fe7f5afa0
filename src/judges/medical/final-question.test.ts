import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../core/index.js';
import { finalQuestion } from './final-question.js';

const turn = (role: ChatMessage['role'], content: string): ChatMessage => ({ role, content });

describe('finalQuestion', () => {
  it('should read a single-turn prompt as before: the user text, no context', () => {
    expect(finalQuestion('Is it safe?')).toEqual({ query: 'Is it safe?', context: [] });
    expect(finalQuestion(undefined)).toEqual({ query: '', context: [] });
    expect(finalQuestion([turn('system', 'be kind'), turn('user', 'Is it safe?')])).toEqual({
      query: 'Is it safe?',
      context: [],
    });
  });

  it('should take the last user turn as the question and every other turn as context in a session', () => {
    const session = [
      turn('system', 'You are a health assistant.'),
      turn('user', 'I have a headache.'),
      turn('assistant', 'How long has it lasted?'),
      turn('user', 'Three days, and I take warfarin.'),
    ];
    expect(finalQuestion(session)).toEqual({
      query: 'Three days, and I take warfarin.',
      context: session.slice(0, 3),
    });
  });

  it('should keep turns after the last user turn in the context, in order', () => {
    const session = [turn('user', 'q1'), turn('assistant', 'a1'), turn('user', 'q2'), turn('tool', 'lookup')];
    expect(finalQuestion(session)).toEqual({ query: 'q2', context: [session[0], session[1], session[3]] });
  });
});
