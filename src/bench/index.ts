export type {
  AnyBenchDataset,
  BenchContext,
  BenchDataset,
  BenchFigure,
  BenchScore,
  BenchTable,
  TracedJudgment,
} from './bench-dataset.js';
export { BENCH_DATASETS } from './bench-datasets.js';
export {
  type BenchJudgment,
  BenchJudgmentSchema,
  type BenchOutcome,
  type BenchRecord,
  BenchRecordSchema,
  type JudgedRecord,
} from './bench-record.js';
export { type BenchReport, buildBenchReport } from './bench-report.js';
export { type DatasetRow, type DatasetRowsOptions, readDatasetRows } from './dataset-rows.js';
export {
  JudgeBenchRowSchema,
  judgeBenchCategory,
  judgeBenchOrderOutcome,
  judgeBenchOutcome,
} from './datasets/judgebench.js';
export { PairwiseRowSchema } from './datasets/pairwise.js';
export { RewardBenchRowSchema } from './datasets/rewardbench.js';
export { REWARDBENCH2_DOMAINS, RewardBench2RowSchema } from './datasets/rewardbench2.js';
export {
  RM_BENCH_DOMAINS,
  RM_BENCH_STYLES,
  RmBenchRowSchema,
  rmBenchCellKey,
  rmBenchDomain,
} from './datasets/rm-bench.js';
export type { GroupOutcomes } from './group-outcomes.js';
export { type JudgeMetrics, judgeMetrics } from './judge-metrics.js';
export { judgeChosenRejected, pairOutcome } from './judge-pair.js';
export type { LengthRatioBucket } from './length-ratio-buckets.js';
export { judgeListwise, ListwiseOutputSchema } from './listwise-judge.js';
export { CREDIT_POLICIES, type CreditPolicy, meanCredit, pairCredit } from './pair-credit.js';
export { pearson } from './pearson.js';
export { type AnswerRating, RatingOutputSchema, rateAnswer } from './rating-judge.js';
export { ratingsOutcome, sharedTopCredit } from './ratings-outcome.js';
export { type AtpRowRead, readAtpRows } from './read-atp-rows.js';
export {
  REWARDBENCH_EXAMPLE_COUNTS,
  REWARDBENCH_SECTIONS,
  type RewardBenchSections,
  rewardBenchSections,
} from './rewardbench-sections.js';
export {
  type RewardBench2TiesScore,
  rewardBench2TiesScore,
  type TiesPromptRatings,
} from './rewardbench2-ties.js';
export { type RunBenchOptions, type RunBenchResult, runBench } from './run-bench.js';
