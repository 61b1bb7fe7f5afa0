/**
 * EVPV gating: a visually dependent step's +1 becomes p (its credit is only as good as the premise
 * it read off the image); a −1 stays −1, since a failure is never softened; other steps keep their score.
 */
export function gateStepScores(raw: readonly number[], visualSteps: readonly number[], p: number): number[] {
  const visual = new Set(visualSteps);
  return raw.map((r, i) => (visual.has(i) && r > 0 ? p * r : r));
}
