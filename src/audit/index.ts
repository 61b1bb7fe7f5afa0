/**
 * The bias audit (issue 30 §2): estimators as pure functions over numbers and text, in nats —
 * bias attributes of a response, Pearson and Spearman, mutual information (plug-in with
 * Miller–Madow, quantile binning) and DIR's CLUB bound, each with a seeded bootstrap interval —
 * and `runAudit`, which scores samples, measures each attribute's association with the reward and
 * how far the redteam registry's rewrites move it.
 */

export {
  type Association,
  attributeAssociation,
  MIN_DIFFERING_SAMPLES,
  type MiMethod,
} from './attribute-association.js';
export {
  type AttributeAudit,
  type AuditRow,
  auditAssociations,
  NO_SOURCE,
} from './audit-associations.js';
export { type AuditReport, AuditReportSchema, auditReport } from './audit-report.js';
export {
  type BiasAttributes,
  biasAttributes,
  type PairAttributes,
  pairAttributes,
  parseStatedConfidence,
} from './bias-attributes.js';
export { type BiasShift, type BootstrapOptions, bootstrapInterval } from './bootstrap-interval.js';
export { averageRanks, pearson, pearsonValue, spearman, spearmanValue } from './correlation.js';
export { type Estimate, MIN_AUDIT_SAMPLES } from './estimate.js';
export { DEFAULT_PROBES, exploitProbe, type Probe } from './exploit-probe.js';
export {
  binnedMutualInformation,
  clubUpperBound,
  type Discrete,
  defaultBinCount,
  type MutualInformationValue,
  mutualInformation,
  mutualInformationValue,
  quantileBins,
  type RewardKind,
} from './mutual-information.js';
export { type ProbeSummary, type ProbeTrial, summariseProbe } from './probe-shift.js';
export { MAX_DISCRETE_REWARD_LEVELS, rewardKindOf } from './reward-kind.js';
export {
  type AuditOptions,
  type AuditResult,
  type FailedScoring,
  runAudit,
  type Scoring,
} from './run-audit.js';
export { pairAuditAttributes, sampleAttributes } from './sample-attributes.js';
