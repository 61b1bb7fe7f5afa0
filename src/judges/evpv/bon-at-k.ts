/** Scores closer than this are a tie (sums of gated scores carry float noise). */
const TIE = 1e-9;

/**
 * EVPV BoN@k: among the first k candidates, those with the top score (ties within 1e-9) are the
 * selection; it is correct when any of them is correct. Candidates without a score (undefined or
 * NaN: unparseable output) are never selected; when none of the first k has one, it is incorrect.
 */
export function bonAtK(
  candidates: ReadonlyArray<{ readonly score: number | undefined; readonly correct: boolean }>,
  k: number,
): boolean {
  const first = candidates.slice(0, k).filter((c) => c.score !== undefined && !Number.isNaN(c.score));
  if (first.length === 0) return false;
  const top = Math.max(...first.map((c) => c.score as number));
  return first.some((c) => (c.score as number) >= top - TIE && c.correct);
}
