export type { AdamWOptions, AdamWParams } from './adamw-step.js';
export {
  expectedFirstTokenScore,
  type FirstTokenScore,
  parseFirstTokenScore,
} from './afrl-first-token-score.js';
export { type AfrlReward, type AfrlRewardOptions, afrlReward, DEFAULT_AFRL_REWARD } from './afrl-reward.js';
export { afrlStepwiseGroupMethod } from './afrl-stepwise-group-method.js';
export { pickBestByScore } from './best-of-n-by-score.js';
export { type KnockoutMatch, type KnockoutResult, knockoutBestOfN } from './best-of-n-knockout.js';
export {
  type BestOfNCandidate,
  BestOfNCandidateSchema,
  type BestOfNCheckpoint,
  type BestOfNReport,
  bestOfNCheckpoints,
  bestOfNReport,
  type MajorityVote,
} from './best-of-n-report.js';
export {
  type BrpoGroup,
  type BrpoGroupOptions,
  type BrpoGroupResult,
  BrpoGroupSchema,
  type BrpoRollout,
  brpoGroup,
} from './brpo-group.js';
export { brpoGroupMethod } from './brpo-group-method.js';
export { pickBrpoReference } from './brpo-reference.js';
export {
  type BrpoOutcome,
  BrpoOutcomeSchema,
  type BrpoOutcomesInput,
  BrpoOutcomesSchema,
  type BrpoRewards,
  brpoRewards,
} from './brpo-rewards.js';
export { type BufferedStateAccess, bufferedStateAccess } from './buffered-state-access.js';
export {
  type ClipoLosses,
  type ClipoLossOptions,
  type ClipoPoint,
  type ClipoVariant,
  clipoContrastiveLosses,
} from './clipo-contrastive-loss.js';
export { clipoGroupMethod, clipoStateKey } from './clipo-group-method.js';
export { type ClipoProjection, clipoWeightGradient, projectClipo } from './clipo-head-forward.js';
export { type ClipoHeadState, ClipoHeadStateSchema, createClipoHeadState } from './clipo-head-state.js';
export {
  type ClipoBatchResult,
  type ClipoOptions,
  type ClipoRollout,
  ClipoRolloutSchema,
  clipoBatch,
  clipoContrastiveReward,
  DEFAULT_CLIPO,
} from './clipo-shaping.js';
export { type ClippedObjective, clippedObjective } from './clipped-objective.js';
export { type EtrBounds, type EtrOptions, etrClipBounds, learningZone } from './etr-clip-bounds.js';
export { etrGroupMethod } from './etr-group-method.js';
export {
  GROUP_METHOD_NAMES,
  GROUP_METHODS,
  type GroupMethodName,
  groupMethod,
  parseGroupOptions,
  shapeGroup,
} from './group-methods.js';
export {
  DimsSchema,
  GroupIdSchema,
  NullableRewardsSchema,
  ScalarGroupRowSchema,
} from './group-row-schemas.js';
export { groupSeed } from './group-seed.js';
export {
  defineGroupMethod,
  type GroupMethod,
  type GroupShaping,
  type GroupShapingContext,
} from './group-shaping.js';
export {
  GroupRewardsSchema,
  type GroupStdKind,
  type GrpoOptions,
  groupStd,
  grpoAdvantages,
} from './grpo-advantages.js';
export { grpoGroupMethod } from './grpo-group-method.js';
export { modeBalancedLoss } from './mode-balanced-loss.js';
export { pearsonCorrelations } from './pearson-correlations.js';
export {
  applyReferenceNormalization,
  type FitReferenceOptions,
  fitReferenceNormalization,
  type ReferenceStats,
  ReferenceStatsSchema,
  RewardMatrixSchema,
} from './reference-frozen-normalization.js';
export { DimsGroupRowSchema, rfnGroupMethod } from './rfn-group-method.js';
export {
  type RfnReferenceDocument,
  RfnReferenceDocumentSchema,
  rfnReferenceKey,
  storeRfnReference,
} from './rfn-reference-document.js';
export { type ScoredRollouts, scoredRollouts, spreadToGroup } from './scored-rollouts.js';
export {
  createShapingSummary,
  type ShapedGroupRow,
  type ShapingSummary,
  type ShapingSummaryBuilder,
  type ValueStats,
} from './shaping-summary.js';
export type { StateAccess } from './state-access.js';
export { withStateLock } from './state-lock.js';
export { stepwiseGroupAdvantages } from './stepwise-advantages.js';
export {
  type TriFactorState,
  TriFactorStateSchema,
  triFactorGroupMethod,
  triFactorStateKey,
} from './tri-factor-group-method.js';
export {
  type TriFactorInput,
  TriFactorInputSchema,
  type TriFactorWeights,
  triFactorWeights,
} from './tri-factor-weights.js';
export { weightedReward } from './weighted-reward.js';
