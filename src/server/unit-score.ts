/**
 * A reward mapped into [0, 1] for OpenRLHF's `scores` (dynamic filtering): linearly from the
 * spec's `clamp: [lo, hi]` when it has one, else the reward clipped to [0, 1].
 */
export function unitScore(reward: number, clamp: readonly [number, number] | undefined): number {
  if (clamp && clamp[1] > clamp[0])
    return Math.min(1, Math.max(0, (reward - clamp[0]) / (clamp[1] - clamp[0])));
  return Math.min(1, Math.max(0, reward));
}
