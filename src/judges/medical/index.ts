export { type FinalQuestion, finalQuestion } from './final-question.js';
export { inlineMedicalRubric } from './inline-medical-rubric.js';
export {
  judgeMedicalRubric,
  type MedicalCriterionGrade,
  type MedicalRubricInput,
  type MedicalRubricJudgeOptions,
  type MedicalRubricJudgment,
} from './judge-medical-rubric.js';
export {
  CREDIT_GRADE_VALUE,
  type CreditGrade,
  CreditGradeSchema,
  PITFALL_GRADE_VALUE,
  type PitfallGrade,
  PitfallGradeSchema,
} from './medical-grades.js';
export { medicalTie, stretchAboveMean } from './medical-rl.js';
export {
  type CreditCriterion,
  CreditCriterionSchema,
  type MedicalRubric,
  MedicalRubricSchema,
  type PitfallCriterion,
  PitfallCriterionSchema,
  RubricCapabilitySchema,
  type RubricSection,
} from './medical-rubric.js';
export {
  type MedicalScoringOptions,
  MedicalScoringOptionsSchema,
  type ResolvedMedicalScoringOptions,
} from './medical-scoring-options.js';
export {
  loadMedicalRubrics,
  type MedicalRubricFile,
  readMedicalRubrics,
  rubricFileProblems,
  rubricFor,
} from './read-medical-rubrics.js';
export { type RubricCriterionEntry, rubricCriteria } from './rubric-criteria.js';
export {
  type GradedCreditCriterion,
  type GradedMedicalRubric,
  type GradedPitfallCriterion,
  type MedicalScoreBreakdown,
  type MedicalScoringRule,
  scoreMedicalGrades,
} from './score-medical-grades.js';
