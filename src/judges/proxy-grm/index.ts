export { genrmRubricProducer } from './genrm-rubric-producer.js';
export { medicalRubricProducer, medicalRubricText } from './medical-rubric-producer.js';
export { openrsRubricProducer } from './openrs-rubric-producer.js';
export {
  allProxyGrmRewards,
  COMBINER_RANGES,
  COMBINERS,
  type Combiner,
  combineProxyGrm,
  type ProxyGrmTerms,
  unitProxyGrmReward,
} from './proxy-grm-combiners.js';
export {
  accTerm,
  answerPositions,
  extractAnswer,
  extractRubric,
  formatTerm,
  type ProxyPrediction,
  proxyTerm,
  type ShownPosition,
} from './proxy-grm-terms.js';
export { judgeByProxy, type ProxyInput, type ProxyJudgment, type ProxyOptions } from './proxy-judge.js';
export { rubricJudgeProducer, rubricJudgeText } from './rubric-judge-producer.js';
export type { ProducedRubric, ProduceOptions, RubricProducer, ShownPair } from './rubric-producer.js';
export {
  type QualityPair,
  type RubricQualityFailure,
  type RubricQualityOptions,
  type RubricQualityRecord,
  scoreRubricQuality,
} from './rubric-quality.js';
export {
  type MeanWithInterval,
  type RubricQualitySummary,
  summarizeRubricQuality,
} from './rubric-quality-summary.js';
