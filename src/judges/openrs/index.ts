export { type Constraint, ConstraintSchema } from './constraint.js';
export { type ConstraintOutcome, type ConstraintResult, checkConstraints } from './constraint-check.js';
export {
  type ComparisonOutput,
  ComparisonOutputSchema,
  compareResponses,
  type JudgedCriterion,
  JudgedCriterionSchema,
} from './criterion-comparison.js';
export {
  type DomainPool,
  DomainPoolSchema,
  type HardFlawDimension,
  HardFlawDimensionSchema,
  loadDomainPools,
  type PoolCriterion,
  PoolCriterionSchema,
  parseDomainPool,
} from './domain-pool.js';
export {
  domainPoolChanges,
  type ParsedPoolReview,
  POOL_REVIEW_HEADER,
  type PoolChanges,
  parseDomainPoolReview,
  renderDomainPoolReview,
} from './domain-pool-review.js';
export {
  checkGroundTruth,
  type GroundTruthCheck,
  GroundTruthOutputSchema,
  type GroundTruthScore,
  programmaticGroundTruth,
} from './ground-truth-check.js';
export { analyzeIntent, type Intent, intentSchema } from './intent-analysis.js';
export {
  HARD_FLAW_HEADINGS,
  loadMetaRubric,
  META_RUBRIC_SECTIONS,
  type MetaRubric,
  MetaRubricSchema,
  parseMetaRubric,
} from './meta-rubric.js';
export {
  metaRubricSectionText,
  renderMetaRubric,
  replaceMetaRubricSection,
} from './meta-rubric-markdown.js';
export {
  aggregateOpenrs,
  type CriterionComparison,
  CriterionComparisonSchema,
  type CriterionType,
  CriterionTypeSchema,
  combineOrders,
  OPENRS_WEIGHTS,
  type OpenrsAggregate,
  type PairVerdict,
} from './openrs-aggregate.js';
export {
  DEFAULT_DOMAINS_DIR,
  DEFAULT_META_RUBRIC,
  loadOpenrsFiles,
  type OpenrsFiles,
} from './openrs-files.js';
export {
  createOpenrsJudge,
  judgeOpenrs,
  type OpenrsDetail,
  type OpenrsJudgment,
  type OpenrsOptions,
  type OpenrsOrder,
  type OpenrsPair,
  type VerifiableLabel,
} from './openrs-judge.js';
export {
  decideByConstraints,
  decideByGroundTruth,
  type PrecheckDecision,
  passesAll,
} from './precheck-decision.js';
