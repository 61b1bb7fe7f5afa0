import type { RewardResult } from '../core/index.js';
import type { RunRecord, Store } from '../store/index.js';
import type { JsonlResultSink } from './jsonl-result-sink.js';
import type { ResultSink } from './result-sink.js';
import type { SummaryAccumulator } from './run-summary.js';
import type { ScoreFileOptions } from './score-file.js';

/** What both ways of scoring a file share: its options, where results go, and the tally. */
export interface ScoringContext {
  readonly options: ScoreFileOptions;
  readonly inputName: string;
  readonly sink: ResultSink | JsonlResultSink<RewardResult>;
  readonly store: Store | undefined;
  readonly run: RunRecord | undefined;
  readonly accumulator: SummaryAccumulator;
  readonly warn: (message: string) => void;
}
