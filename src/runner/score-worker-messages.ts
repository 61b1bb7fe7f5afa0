import type { RewardResult } from '../core/index.js';
import type { FieldMapping, RowOrigin, UnparsedRecord } from '../dataset/index.js';
import type { ResolvedSpec } from '../spec/index.js';
import type { SampleText, SqliteResultRow } from '../store/index.js';
import type { SummarizedResult } from './run-summary.js';

/** What the main thread needs back for each result; whatever it does not need is never made or copied. */
export interface ScoreWorkerKeeps {
  /** The result as its JSONL line (JSONL output). */
  readonly line: boolean;
  /** The result encoded for the SQLite store, with its text. */
  readonly sqliteRow: boolean;
  /** The result itself (Parquet output, or a store other than SQLite), with its text when `text`. */
  readonly result: boolean;
  readonly text: boolean;
}

/** What a scoring worker is started with. */
export interface ScoreWorkerData {
  readonly spec: ResolvedSpec;
  readonly allowUnsafeCode: boolean;
  readonly traces: boolean;
  readonly mappings: readonly FieldMapping[] | undefined;
  /** Ids already in the output (resume): such rows come back as `done`, unscored. */
  readonly done: readonly string[];
  /** Samples one worker verifies at once: its share of the run's `--concurrency`. */
  readonly concurrency: number;
  readonly keeps: ScoreWorkerKeeps;
}

/** Main thread → worker: a chunk of dataset records, in input order. */
export interface ScoreChunk {
  readonly chunk: number;
  readonly records: readonly UnparsedRecord[];
}

/** One row of a chunk, scored (a row that could not be read is scored as failed). */
export type ScoredRow =
  | { readonly kind: 'done'; readonly id: string }
  | {
      readonly kind: 'scored';
      readonly id: string;
      readonly origin: RowOrigin;
      readonly summary: SummarizedResult;
      readonly line?: string;
      readonly sqliteRow?: SqliteResultRow;
      readonly result?: RewardResult;
      readonly text?: SampleText;
    };

/** Worker → main thread: a chunk's rows in input order, or the bug that stopped it. */
export type ScoredChunk =
  | { readonly chunk: number; readonly rows: readonly ScoredRow[] }
  | { readonly chunk: number; readonly error: string };
