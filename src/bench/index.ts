/**
 * `rewardkit/bench`: running a judge over the reward-model benchmarks (`runBench`), the dataset
 * registry and its shape (to add one), records and the report. Per-dataset row schemas, credit
 * rules and metrics stay inside.
 */
export type {
  AnyBenchDataset,
  BenchContext,
  BenchDataset,
  BenchFigure,
  BenchScore,
  BenchTable,
} from './bench-dataset.js';
export { BENCH_DATASETS } from './bench-datasets.js';
export {
  type BenchJudgment,
  type BenchOutcome,
  type BenchRecord,
  BenchRecordSchema,
  type JudgedRecord,
} from './bench-record.js';
export { type BenchReport, buildBenchReport } from './bench-report.js';
export { type DatasetRow, type DatasetRowsOptions, readDatasetRows } from './dataset-rows.js';
export { type JudgeMetrics, judgeMetrics } from './judge-metrics.js';
export { type RunBenchOptions, type RunBenchResult, runBench } from './run-bench.js';
