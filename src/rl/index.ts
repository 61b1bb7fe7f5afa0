/**
 * `rewardkit/rl`: turning rewards into advantages. `shapeGroup` with a method name (or
 * `groupMethod`) is the door most callers need; the methods' own functions (GRPO, BRPO, CLIPO,
 * ETR, AFRL, tri-factor, reference-frozen normalization, best-of-N) are here for callers that
 * compose them directly. State keys, row schemas and method wiring stay inside.
 */
export { type AfrlReward, type AfrlRewardOptions, afrlReward } from './afrl-reward.js';
export { pickBestByScore } from './best-of-n-by-score.js';
export { type KnockoutResult, knockoutBestOfN } from './best-of-n-knockout.js';
export { type BestOfNCandidate, type BestOfNReport, bestOfNReport } from './best-of-n-report.js';
export {
  type BrpoGroupOptions,
  type BrpoGroupResult,
  type BrpoRollout,
  brpoGroup,
} from './brpo-group.js';
export { type BrpoRewards, brpoRewards } from './brpo-rewards.js';
export { type ClipoHeadState, createClipoHeadState } from './clipo-head-state.js';
export {
  type ClipoBatchResult,
  type ClipoOptions,
  type ClipoRollout,
  clipoBatch,
  clipoContrastiveReward,
} from './clipo-shaping.js';
export { type ClippedObjective, clippedObjective } from './clipped-objective.js';
export { type EtrBounds, type EtrOptions, etrClipBounds } from './etr-clip-bounds.js';
export {
  GROUP_METHOD_NAMES,
  GROUP_METHODS,
  type GroupMethodName,
  groupMethod,
  parseGroupOptions,
  shapeGroup,
} from './group-methods.js';
export {
  defineGroupMethod,
  type GroupMethod,
  type GroupShaping,
  type GroupShapingContext,
} from './group-shaping.js';
export { type GroupStdKind, type GrpoOptions, groupStd, grpoAdvantages } from './grpo-advantages.js';
export { modeBalancedLoss } from './mode-balanced-loss.js';
export {
  applyReferenceNormalization,
  type FitReferenceOptions,
  fitReferenceNormalization,
  type ReferenceStats,
} from './reference-frozen-normalization.js';
export { createShapingSummary, type ShapingSummary } from './shaping-summary.js';
export type { StateAccess } from './state-access.js';
export { stepwiseGroupAdvantages } from './stepwise-advantages.js';
export { type TriFactorInput, type TriFactorWeights, triFactorWeights } from './tri-factor-weights.js';
export { weightedReward } from './weighted-reward.js';
