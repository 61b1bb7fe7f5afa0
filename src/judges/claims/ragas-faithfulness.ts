/**
 * RAGAS faithfulness: the share of the answer's claims the documents support. Undefined for an
 * answer with no claims (RAGAS returns NaN there), so the caller flags it instead of scoring it.
 */
export function ragasFaithfulness(supported: number, total: number): number | undefined {
  if (total <= 0) return undefined;
  return supported / total;
}
