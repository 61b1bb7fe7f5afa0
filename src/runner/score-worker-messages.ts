import type { RewardResult } from '../core/index.js';
import type { FieldMapping, UnparsedRecord } from '../dataset/index.js';
import type { ResolvedSpec } from '../spec/index.js';
import type { SampleText } from '../store/index.js';
import type { SqliteResultRow } from '../store/sqlite-result-rows.js';
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

/** A row's summary without its id: what many rows of a chunk share. */
export type SummaryKind = Omit<SummarizedResult, 'id'>;

/**
 * A chunk's rows scored, in input order, column by column. A structured-clone message costs by
 * the objects it holds, and an object per row (with its summary's, its origin's) was most of the
 * main thread's work at a few microseconds a row; here a chunk is a few arrays and strings.
 */
export interface ScoredRows {
  /** Every row's id, rows already in the output (resume) included. */
  readonly ids: readonly string[];
  /** The index in the chunk's records of the record each row came from (its origin). */
  readonly recordOf: readonly number[];
  /** Each row's summary as an index into `summaries`; -1 for a row already in the output. */
  readonly summaryOf: readonly number[];
  /** The distinct summaries of the chunk's rows, as JSON (rows of a verifier mostly share a few). */
  readonly summaries: readonly string[];
  /** The scored rows' JSONL lines, one after another (`keeps.line`). */
  readonly lines: string;
  /** Where each scored row's line ends in `lines`, so one line can be replaced. */
  readonly lineEnds: readonly number[];
  /** Each scored row encoded for the SQLite store (`keeps.sqliteRow`). */
  readonly sqliteRows: readonly SqliteResultRow[];
  /** Each scored row's result and text (`keeps.result`). */
  readonly results: readonly RewardResult[];
  readonly texts: readonly (SampleText | undefined)[];
}

/** Worker → main thread: a chunk's rows, or the bug that stopped it. */
export type ScoredChunk =
  | { readonly chunk: number; readonly rows: ScoredRows }
  | { readonly chunk: number; readonly error: string };
