/**
 * The bias audit's estimators (issue 30 §2), pure functions over numbers and text, in nats:
 * bias attributes of a response, Pearson and Spearman, mutual information (plug-in with
 * Miller–Madow, quantile binning) and DIR's CLUB bound, each with a seeded bootstrap interval.
 */
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
