/**
 * `inverse` (default): 1 − s, rewarding questions the solver fails; `balanced`: 4s(1 − s) for
 * 0 < s < 1, else 0, rewarding questions of middling difficulty.
 */
export type ProposerRewardMode = 'inverse' | 'balanced';

/** s: the fraction of solver rollouts with a reward above 0. */
export function solveRate(solverRewards: readonly number[]): number {
  if (solverRewards.length === 0) throw new RangeError('solveRate needs at least one solver reward');
  return solverRewards.filter((r) => r > 0).length / solverRewards.length;
}

/** The proposer's reward for a verified question from its solver rollouts' rewards. */
export function proposerReward(
  solverRewards: readonly number[],
  mode: ProposerRewardMode = 'inverse',
): number {
  const s = solveRate(solverRewards);
  if (mode === 'inverse') return 1 - s;
  return s > 0 && s < 1 ? 4 * s * (1 - s) : 0;
}
