import { exactMatch } from '../../verify/reference/index.js';

/**
 * Whether a candidate is correct: its own `correct` flag when given; else its final answer against
 * the problem's answer (normalized exact match, or equal numbers); `undefined` when neither is known.
 */
export function candidateCorrect(
  flag: boolean | undefined,
  finalAnswer: string | undefined,
  answer: string | undefined,
): boolean | undefined {
  if (flag !== undefined) return flag;
  if (answer === undefined) return undefined;
  if (finalAnswer === undefined) return false;
  const [a, b] = [Number(finalAnswer), Number(answer)];
  if (finalAnswer.trim() !== '' && answer.trim() !== '' && Number.isFinite(a) && Number.isFinite(b))
    return a === b;
  return exactMatch(finalAnswer, answer).match;
}
