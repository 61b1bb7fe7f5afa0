/**
 * `rewardkit/judges`: the LLM judges, and what writing a judge of your own needs (`defineJudgeRole`,
 * the pairwise judge shape, `untrustedBlock`). Each judge is a `judgeX` call plus, where it plugs
 * into group comparisons, a `createXJudge` factory; their parsers, prompts and schemas stay inside.
 */
export {
  type AgreementStatistic,
  type AlphaLevel,
  type AlphaUnit,
  categoryCounts,
  cohenKappa,
  fleissKappa,
  type KappaWeights,
  krippendorffAlpha,
  type PanelAgreement,
  type PanelRatings,
  panelAgreement,
  type RatingPair,
  weightedCohenKappa,
} from './agreement/index.js';
export {
  type AnswerEquivalenceReply,
  judgeAnswerEquivalence,
} from './answer-equivalence.js';
export {
  aggregateClaims,
  type Claim,
  type ClaimCheckInput,
  type ClaimCheckJudgment,
  type ClaimCheckOptions,
  type ClaimVerdict,
  factScore,
  marchClaimCheck,
  proposeClaims,
  ragasFaithfulness,
  refcheckerAggregate,
} from './claims/index.js';
export {
  corruptionCurve,
  createConstraintCache,
  createLlmPremiseAuditor,
  type EvpvCandidate,
  type EvpvProblem,
  type EvpvRoles,
  extractVisualConstraints,
  judgeSteps,
  llmEvpvRoles,
  type PremiseAuditor,
  ruleBasedPremiseAuditor,
  type ScoredEvpvProblem,
  scoreEvpvProblem,
} from './evpv/index.js';
export {
  createGenrmJudge,
  type GenrmJudgment,
  type GenrmOptions,
  type GenrmPair,
  judgeGenrm,
} from './genrm-judge.js';
export {
  defineJudgeRole,
  type InvalidOutcome,
  type JudgeRole,
  type JudgeRoleDefinition,
  type RoleCall,
  type RoleCallOptions,
  type RoleOutcome,
} from './judge-role.js';
export {
  judgeMedicalRubric,
  loadMedicalRubrics,
  type MedicalRubric,
  type MedicalRubricInput,
  type MedicalRubricJudgeOptions,
  type MedicalRubricJudgment,
} from './medical/index.js';
export {
  type EvolutionResult,
  type EvolveMetaRubricOptions,
  evolveMetaRubric,
  type GenerationStore,
  type HeldOutReport,
  heldOutCheck,
  type LabelledPair,
} from './meta-rubric-evolution/index.js';
export {
  createOpenrsJudge,
  judgeOpenrs,
  loadOpenrsFiles,
  type OpenrsFiles,
  type OpenrsJudgment,
  type OpenrsOptions,
  type OpenrsPair,
  renderMetaRubric,
} from './openrs/index.js';
export type {
  OrderedComparison,
  PairInput,
  PairwiseJudge,
  PairwiseJudgment,
} from './pairwise-judge.js';
export {
  COMBINERS as PROXY_GRM_COMBINERS,
  type Combiner as ProxyGrmCombiner,
  combineProxyGrm,
  genrmRubricProducer,
  judgeByProxy,
  medicalRubricProducer,
  openrsRubricProducer,
  type ProxyGrmTerms,
  type RubricProducer,
  type RubricQualityRecord,
  type RubricQualitySummary,
  rubricJudgeProducer,
  scoreRubricQuality,
  summarizeRubricQuality,
} from './proxy-grm/index.js';
export {
  aggregateRubric,
  judgeRubric,
  type Rubric,
  type RubricJudgeInput,
  type RubricJudgeOptions,
  type RubricJudgment,
  RubricSchema,
} from './rubric/index.js';
export {
  authorRubric,
  lintRubric,
  parseRubricMarkdown,
  type RubricAuthoringOptions,
  type RubricLintWarning,
  type RubricRecord,
  renderRubricMarkdown,
} from './rubric-authoring/index.js';
export {
  judgeToolPlan,
  parseToolPlan,
  type ToolPlan,
  type ToolPlanInput,
  type ToolPlanJudgeOptions,
  type ToolPlanJudgment,
  type ToolPlanReport,
  toolPlanReport,
} from './tool-plan/index.js';
export { promptNonce, untrustedBlock } from './untrusted-block.js';
