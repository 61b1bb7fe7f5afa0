import type { ChatMessage } from '../core/index.js';

/**
 * The read side the inspector (`rewardkit view`) needs beyond whole results: pages of light sample
 * rows, filtered and sorted in the database so that a run of a million results stays fast.
 */

/** The sample text saved with a result, so that a result can be read next to what it judged. */
export interface SampleText {
  readonly prompt?: string | readonly ChatMessage[];
  readonly response: string;
  /** The answer the sample was judged against, as the sample gave it (one or several). */
  readonly reference?: string | readonly string[];
}

/** Which rows of one run, in which order. Every filter is optional; all given ones must hold. */
export interface SampleQuery {
  readonly status?: 'ok' | 'failed';
  /** Rows where this source produced a score (its component is not null). */
  readonly source?: string;
  readonly dataSource?: string;
  readonly minReward?: number;
  readonly maxReward?: number;
  /** A case-insensitive substring of the sample id, the response or the errors. */
  readonly text?: string;
  /** `position`: the order results were saved in (input order for `score`). */
  readonly sort?: 'position' | 'reward' | 'sample_id' | 'total_ms';
  readonly order?: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

/** The filters and sort of a `SampleQuery`, without its page. */
export type SampleFilter = Omit<SampleQuery, 'limit' | 'offset'>;

/** One row of a sample page: what a table shows, with the response cut to a preview. */
export interface SampleRow {
  readonly sample_id: string;
  readonly status: 'ok' | 'failed';
  readonly reward: number | null;
  readonly components: Record<string, number | null>;
  readonly data_source: string | null;
  readonly group: string | null;
  readonly total_ms: number;
  readonly errors: number;
  /** A failed row's first reason, cut to `FIRST_ERROR_CHARS`; null when it has none. */
  readonly first_error: string | null;
  readonly warnings: number;
  /** The response's first characters; null when the store has no text for the row. */
  readonly response_preview: string | null;
  /** The response's full length in characters; null when the store has no text for the row. */
  readonly response_chars: number | null;
}

export interface SamplePage {
  /** Rows matching the filters, over all pages. */
  readonly total: number;
  readonly rows: readonly SampleRow[];
}

/** Counts and reward of one run's results, as they stand (a running run included). */
export interface RunTotals {
  readonly results: number;
  readonly failed: number;
  readonly mean_reward: number | null;
}

/** Which changed samples a comparison lists: any change, a higher or lower reward in b, or a new status. */
export type CompareFilter = 'changed' | 'improved' | 'regressed' | 'status';

/** Characters of each response a comparison row carries, so the list can show what changed. */
export const COMPARE_EXCERPT_CHARS = 160;

/** One side of a changed sample: its numbers and the start of its response (null: no text kept). */
export interface ComparedSide extends Pick<SampleRow, 'status' | 'reward' | 'components'> {
  readonly excerpt: string | null;
}

/** A sample scored in both runs whose status or reward differs. */
export interface ChangedSample {
  readonly sample_id: string;
  readonly a: ComparedSide;
  readonly b: ComparedSide;
}

/** Two runs side by side, largest reward change first. */
export interface RunComparison {
  /** Sample ids in both runs. */
  readonly common: number;
  readonly only_a: number;
  readonly only_b: number;
  /** Common samples whose status or reward differs, over all pages. */
  readonly changed: number;
  /** Common samples whose reward is higher in b (both rewarded). */
  readonly improved: number;
  /** Common samples whose reward is lower in b (both rewarded). */
  readonly regressed: number;
  /** Common samples whose status (ok, failed) differs. */
  readonly status_changed: number;
  readonly rows: readonly ChangedSample[];
}

/** The distribution of the reward (`source` null) or of one source's component over a run. */
export interface RewardHistogram {
  readonly source: string | null;
  readonly min: number;
  readonly max: number;
  /** Equal-width bins from `min` to `max`; a run whose values are all equal has them in bin 0. */
  readonly counts: readonly number[];
}

/**
 * One bucket of a run's results in the order they were saved (input order for `score`, request
 * order for `serve`): a point of "reward over results".
 */
export interface RewardSeriesBucket {
  /** Results saved before this bucket's first one. */
  readonly before: number;
  readonly results: number;
  /** Results with a reward (a failed result has none). */
  readonly rewarded: number;
  readonly mean_reward: number | null;
  readonly min_reward: number | null;
  readonly max_reward: number | null;
}

/** The judge usage of one bucket of a run's results, in saved order, and when they were saved. */
export interface CostSeriesBucket {
  /** Results saved before the bucket, and in it (as in `RewardSeriesBucket`). */
  readonly before: number;
  readonly results: number;
  readonly first_saved_at: string;
  readonly last_saved_at: string;
  /** When the bucket's first and last judge calls were answered; null where none recorded a time. */
  readonly first_call_at: string | null;
  readonly last_call_at: string | null;
  readonly calls: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cache_hits: number;
}

/** One data source of a run (null: the results saved without one), as it stands. */
export interface DataSourceStat {
  readonly data_source: string | null;
  readonly results: number;
  readonly failed: number;
  /** `failed / results`. */
  readonly failure_rate: number;
  /** Over the results with a reward; null when none has one. */
  readonly mean_reward: number | null;
}

/** A run's results by data source, most results first, at most `DATA_SOURCE_CHOICES` of them. */
export interface DataSourceBreakdown {
  readonly data_sources: readonly DataSourceStat[];
  /** The run has more data sources than those listed. */
  readonly truncated: boolean;
}

/** How long a response preview in a sample page is, in characters. */
export const RESPONSE_PREVIEW_CHARS = 240;
/** How much of a failed row's first reason a page of rows carries (the sample has them whole). */
export const FIRST_ERROR_CHARS = 500;
/** The most data sources offered as the filter's choices. */
export const DATA_SOURCE_CHOICES = 200;
