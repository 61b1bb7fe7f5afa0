export { bonAtK } from './bon-at-k.js';
export { candidateCorrect } from './candidate-correct.js';
export {
  type CorruptionMode,
  corruptConstraints,
  drawCorruption,
  type FactDraw,
  flipFact,
  flipNumber,
} from './corrupt-constraints.js';
export {
  type CorruptionCurve,
  type CurvePoint,
  corruptionCurve,
  type StudyProblem,
} from './corruption-curve.js';
export { corruptionCurveCsv, corruptionCurveMarkdown } from './corruption-table.js';
export {
  aggregateStepScores,
  allAggregates,
  EVPV_AGGREGATORS,
  type EvpvAggregator,
} from './evpv-aggregators.js';
export { type EvpvImageInput, type LoadedImage, loadEvpvImage } from './evpv-image.js';
export {
  type EvpvCandidate,
  EvpvCandidateSchema,
  type EvpvProblem,
  EvpvProblemSchema,
} from './evpv-problem.js';
export {
  type ConstraintExtraction,
  createConstraintCache,
  extractVisualConstraints,
  type SharedConstraintExtraction,
} from './extract-constraints.js';
export { gateStepScores } from './gate-step-scores.js';
export { type GatedCandidate, gateCandidate } from './gated-candidate.js';
export { type EvpvRoleModels, llmEvpvRoles } from './llm-evpv-roles.js';
export {
  isEmptyDependency,
  type PolicyOutput,
  PolicyOutputJsonSchema,
  type PolicyOutputParse,
  type PolicyStep,
  parsePolicyOutput,
  visualChecklist,
  visualStepIndices,
} from './policy-steps.js';
export {
  createLlmPremiseAuditor,
  distinctContradictions,
  type PremiseAudit,
  type PremiseAuditor,
  type PremiseContradiction,
} from './premise-audit.js';
export { type ContradictionSeverity, premiseReliability } from './premise-reliability.js';
export { RELATION_CONVERSES, ruleBasedPremiseAuditor } from './rule-premise-audit.js';
export {
  type EvpvRoles,
  type ScoredEvpvCandidate,
  type ScoredEvpvProblem,
  scoreEvpvProblem,
} from './score-evpv-problem.js';
export { judgeSteps, type StepJudging, type StepJudgment } from './step-judge.js';
export { studyProblemOf } from './study-problem.js';
export { factLine, type SymbolicImage, SymbolicImageSchema, symbolicConstraints } from './symbolic-image.js';
export {
  ConstraintExtractionSchema,
  type VisualConstraints,
  VisualConstraintsSchema,
} from './visual-constraints.js';
