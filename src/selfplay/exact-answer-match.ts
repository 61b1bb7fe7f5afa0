import { normalizeAnswer } from '../verify/reference/index.js';

/**
 * Normalized exact match (lowercase, punctuation and English articles removed, spaces collapsed):
 * `"The Paris"` matches `["paris"]`.
 */
export function exactAnswerMatch(answer: string, golds: readonly string[]): boolean {
  const a = normalizeAnswer(answer);
  return a !== '' && golds.some((gold) => normalizeAnswer(gold) === a);
}
