export { aggregateRubric, combineVotes, type VoteRule, type WeightedGrade } from './aggregate-rubric.js';
export {
  type GradedRubricItem,
  judgeRubric,
  type RubricJudgeInput,
  type RubricJudgeOptions,
  type RubricJudgment,
  type RubricVote,
} from './judge-rubric.js';
export { readRubricFile } from './read-rubric-file.js';
export { type GradeScale, gradeScale, type RubricItem, rubricItems } from './rubric-items.js';
export {
  type Rubric,
  type RubricAggregate,
  type RubricInput,
  RubricSchema,
  rubricProblems,
} from './rubric-schema.js';
export { sampleRubric } from './sample-rubric.js';
