/** The part of a Solver response that is checked, and what was done to get it. */
export interface AnswerAfterThink {
  readonly text: string;
  /** A `<think>` block was dropped. */
  readonly dropped: boolean;
  readonly warning?: string;
}

const OPEN = /<think>/g;
const CLOSE = /<\/think>/g;

/**
 * MARCH checks only what the Solver says after its reasoning: one `<think>…</think>` block is
 * dropped with everything before it. A lone `</think>` counts as that block, because chat templates
 * that open the block in the prompt leave only its end in the response. Anything else (several
 * blocks, an unclosed one) is checked whole, with a warning, rather than guessed at.
 */
export function answerAfterThink(response: string): AnswerAfterThink {
  const opens = response.match(OPEN)?.length ?? 0;
  const closes = response.match(CLOSE)?.length ?? 0;
  if (opens === 0 && closes === 0) return { text: response.trim(), dropped: false };
  const end = response.indexOf('</think>');
  if (closes === 1 && opens <= 1 && (opens === 0 || response.indexOf('<think>') < end)) {
    return { text: response.slice(end + '</think>'.length).trim(), dropped: true };
  }
  return {
    text: response.trim(),
    dropped: false,
    warning: `the response has ${opens} <think> and ${closes} </think> tag(s), not one block: it is checked whole`,
  };
}
