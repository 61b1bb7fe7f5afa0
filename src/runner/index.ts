export { defaultRouteWarning } from './default-route-warning.js';
export { finishCheckedRun } from './finish-checked-run.js';
export { openJsonlResultSink } from './jsonl-result-sink.js';
export { createOrderedPool } from './ordered-pool.js';
export { type ResumeState, readResumeState } from './output-resume.js';
export { openParquetResultSink, REWARD_RESULT_PARQUET_SCHEMA } from './parquet-result-sink.js';
export { isParquetPath, type ResultSink } from './result-sink.js';
export {
  createSummaryAccumulator,
  type DefaultRouteCount,
  mergeRunSummaries,
  OTHER_SOURCES,
  type PanelSummary,
  type RunSummary,
  type SourceSummary,
} from './run-summary.js';
export { type ScoreFileOptions, type ScoreFileResult, scoreFile } from './score-file.js';
export {
  type StoreWriter,
  startStoreWriter,
  storeWriterFor,
  storeWritesInline,
} from './store-writer.js';
