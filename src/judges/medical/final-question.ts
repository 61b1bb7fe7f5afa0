import { type ChatMessage, promptText, type Sample } from '../../core/index.js';

/** What the medical judge reads from a sample's prompt: the question, and the turns before it. */
export interface FinalQuestion {
  query: string;
  /** Earlier turns, shown to the grader as context; empty for a single-turn prompt. */
  context: ChatMessage[];
}

/**
 * A prompt as the medical judge reads it. A prompt with an assistant turn is a multi-turn session:
 * its last user turn is the question and every other turn, in order, is context (the response is
 * the assistant's final turn). Any other prompt keeps its single-turn reading, the user text.
 */
export function finalQuestion(prompt: Sample['prompt']): FinalQuestion {
  if (!Array.isArray(prompt) || !prompt.some((t) => t.role === 'assistant')) {
    return { query: promptText({ prompt }), context: [] };
  }
  const last = prompt.findLastIndex((t) => t.role === 'user');
  if (last < 0) return { query: '', context: [...prompt] };
  return {
    query: (prompt[last] as ChatMessage).content,
    context: prompt.filter((_, i) => i !== last),
  };
}
