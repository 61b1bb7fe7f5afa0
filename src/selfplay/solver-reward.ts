/** More answer tags than this in one trajectory divides the reward by 4 (answer spamming). */
export const MAX_ANSWER_TAGS = 10;

/**
 * SSP's solver reward from the last answer's correctness: no answer → 0; correct → 1, else 0;
 * more than 10 `<answer>` tags → the score / 4.
 */
export function solverReward(answerTags: number, correct: boolean): number {
  if (answerTags === 0) return 0;
  const score = correct ? 1 : 0;
  return answerTags > MAX_ANSWER_TAGS ? score / 4 : score;
}
