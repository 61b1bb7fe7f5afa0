import type { RewardResult } from '../core/index.js';
import type {
  CompareFilter,
  CostSeriesBucket,
  DataSourceBreakdown,
  RewardHistogram,
  RewardSeriesBucket,
  RunComparison,
  RunTotals,
  SampleFilter,
  SamplePage,
  SampleQuery,
  SampleRow,
  SampleText,
} from './run-views.js';
import type { NewLabel, SampleLabel } from './sample-label.js';

/** One scoring run: what was scored with which spec, and how it ended. */
export interface RunRecord {
  readonly id: string;
  readonly created_at: string;
  readonly finished_at: string | null;
  readonly spec_name: string;
  /** The resolved spec, as JSON. */
  readonly spec: unknown;
  /** sha256 of the spec's canonical JSON: identifies "the same spec" on resume. */
  readonly spec_hash: string;
  readonly input: string | null;
  readonly output: string | null;
  readonly status: 'running' | 'finished' | 'interrupted';
  readonly summary: unknown | null;
}

export interface NewRun {
  readonly id?: string;
  readonly spec_name: string;
  readonly spec: unknown;
  readonly input?: string;
  readonly output?: string;
}

export interface SourceStat {
  readonly source: string;
  /** Rows where the source produced a score. */
  readonly count: number;
  readonly mean: number | null;
  readonly invalid: number;
  /** Totals of the LLM calls behind this source's evidence; absent for sources that call no model. */
  readonly usage?: {
    readonly calls: number;
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly cache_hits: number;
    /** US dollars, where the models file gives the judge's model a `price`. */
    readonly cost_usd?: number;
  };
}

/**
 * Where runs, results, evidence and failures are kept. Async so that a networked backend
 * (PostgreSQL) implements the same interface as the embedded SQLite one.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  createRun(run: NewRun): Promise<RunRecord>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  listRuns(options?: { limit?: number }): Promise<RunRecord[]>;
  /** The latest run with this spec hash and input/output, to continue on resume. */
  findResumableRun(options: {
    spec_hash: string;
    input?: string;
    output?: string;
  }): Promise<RunRecord | undefined>;
  /**
   * Marks the run finished (or interrupted) with its summary. A finished run's per-source
   * statistics are kept for its readers: `sources` when the caller tallied every row of the run
   * as it saved it (`createSourceStatsTally`, a fresh `score` run), else read from the rows.
   */
  finishRun(
    id: string,
    summary: unknown,
    status?: 'finished' | 'interrupted',
    sources?: readonly SourceStat[],
  ): Promise<void>;
  /**
   * Upserts by (run, sample id) in one transaction, evidence included. `requestId` records the
   * server request that produced them: one for all, or one per result (a write-behind batch
   * gathers the results of several requests into one transaction). `samples` holds the text each
   * result judged, position for position (undefined where unknown), for the inspector.
   */
  saveResults(
    runId: string,
    results: readonly RewardResult[],
    options?: { requestId?: string | readonly string[]; samples?: readonly (SampleText | undefined)[] },
  ): Promise<void>;
  getResult(runId: string, sampleId: string): Promise<RewardResult | undefined>;
  listResults(
    runId: string,
    options?: { status?: 'ok' | 'failed'; requestId?: string; limit?: number; offset?: number },
  ): Promise<RewardResult[]>;
  completedIds(runId: string): Promise<Set<string>>;
  listFailures(runId: string): Promise<{ sample_id: string; reasons: string[] }[]>;
  sourceStats(runId: string): Promise<SourceStat[]>;
  /** The prompt and response saved with a result; undefined when none was saved. */
  getSampleText(runId: string, sampleId: string): Promise<SampleText | undefined>;
  /** One page of a run's results as light rows, filtered and sorted in the database. */
  querySamples(runId: string, query: SampleQuery): Promise<SamplePage>;
  /**
   * Every row `querySamples` would page for these filters and sort, `pageRows` at a time, each
   * batch read after the last (never by offset): an export, linear in the rows it reads.
   */
  streamSamples(runId: string, query: SampleFilter, pageRows: number): AsyncGenerator<SampleRow[]>;
  /** A run's distinct data sources, sorted, at most `DATA_SOURCE_CHOICES` of them. */
  dataSources(runId: string): Promise<string[]>;
  runTotals(runId: string): Promise<RunTotals>;
  /** Counts, failures and mean reward per data source, read in the database in one pass. */
  dataSourceBreakdown(runId: string): Promise<DataSourceBreakdown>;
  /**
   * The samples of run `a` whose status or reward differs in run `b`, largest change first;
   * `filter` (default `changed`) keeps only the improved, regressed or status-changed ones.
   */
  compareRuns(
    a: string,
    b: string,
    page: { limit: number; offset: number; filter?: CompareFilter },
  ): Promise<RunComparison>;
  /** Histograms of the reward and of every source's component over one run. */
  rewardHistograms(runId: string, bins: number): Promise<RewardHistogram[]>;
  /**
   * The reward over a run's results in saved order, cut into at most `buckets` buckets of
   * consecutive saves (equal spans of the save sequence, so a bucket may hold fewer results where
   * other runs saved in between); empty buckets are left out. Read from an index, not the rows.
   */
  rewardSeries(runId: string, buckets: number): Promise<RewardSeriesBucket[]>;
  /** The judge usage over a run's results in the same buckets as `rewardSeries`, with their save times. */
  costSeries(runId: string, buckets: number): Promise<CostSeriesBucket[]>;
  /**
   * A cached model response (JSON text) that has not expired at `now` (ms since the epoch) and,
   * with `maxAgeMs`, was stored less than that long before `now`.
   */
  getCachedResponse(key: string, now: number, maxAgeMs?: number): Promise<string | undefined>;
  /** Cache a model response; `expiresAt` null keeps it until deleted. */
  putCachedResponse(key: string, value: string, now: number, expiresAt: number | null): Promise<void>;
  /** A named state document (JSON), e.g. `clipo-head/<run>`; undefined when never written. */
  getState(key: string): Promise<unknown | undefined>;
  /** Writes (replaces) a named state document. */
  putState(key: string, value: unknown): Promise<void>;
  /** Writes (replaces) a person's label of one sample of a run, kept beside its result. */
  putLabel(runId: string, sampleId: string, label: NewLabel): Promise<SampleLabel>;
  /** A run's labels ordered by sample id, or the one of `sampleId` (none: empty). */
  listLabels(runId: string, options?: { sampleId?: string }): Promise<SampleLabel[]>;
  /**
   * Closes as `interrupted` the running runs whose process stopped renewing their heartbeat for
   * longer than the store's lease (it was killed or lost), each with a summary of the counts the
   * store holds for it; resolves with their ids. Every store that can write does this when it
   * opens and then a few times per lease, so a caller needs it only to look at once.
   */
  closeStaleRuns(): Promise<string[]>;
  /** Resolves when the store answers now; rejects (`RK_STORE_UNAVAILABLE`) when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The store's reads for the inspector, which each backend writes in its own SQL dialect. */
export type RunViews = Pick<
  Store,
  | 'getSampleText'
  | 'querySamples'
  | 'streamSamples'
  | 'dataSources'
  | 'dataSourceBreakdown'
  | 'runTotals'
  | 'compareRuns'
  | 'rewardHistograms'
  | 'rewardSeries'
  | 'costSeries'
>;
