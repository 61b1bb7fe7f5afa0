/** FActScore's length penalty constant: answers with fewer facts than this are penalized. */
export const FACTSCORE_GAMMA = 10;

/**
 * FActScore: the supported fraction of the answer's facts, times the length penalty
 * exp(1 - gamma/n) when it has n < gamma facts, so an answer cannot score well by saying little.
 * Undefined for an answer with no facts.
 */
export function factScore(supported: number, total: number, gamma = FACTSCORE_GAMMA): number | undefined {
  if (total <= 0) return undefined;
  const penalty = total < gamma ? Math.exp(1 - gamma / total) : 1;
  return (supported / total) * penalty;
}
