/** The inspector's JSON API (src/view/), asked relative to the page so that any mount point works. */

export interface RunOverview {
  id: string;
  spec_name: string;
  /** `score`, or the analysis command that stored the run (`redteam`, …). */
  kind: string;
  headline?: string;
  status: 'running' | 'finished' | 'interrupted';
  input: string | null;
  output: string | null;
  created_at: string;
  finished_at: string | null;
  results: number;
  failed: number;
  mean_reward: number | null;
  cost?: { calls: number; prompt_tokens: number; completion_tokens: number; cache_hits: number };
  duration_ms: number;
}

export interface SourceStat {
  source: string;
  count: number;
  mean: number | null;
  invalid: number;
  usage?: {
    calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    cache_hits: number;
    /** US dollars, where the models file gave the judge's model a `price`. */
    cost_usd?: number;
  };
}

export interface RunDetail {
  run: RunOverview;
  spec: unknown;
  summary: unknown;
  sources: SourceStat[];
}

/** `api/runs/<id>/reward-series`: the reward over results in saved order, bucketed. */
export interface RewardSeriesBucket {
  before: number;
  results: number;
  rewarded: number;
  mean_reward: number | null;
  min_reward: number | null;
  max_reward: number | null;
}

/** `api/runs/<id>/cost-series`: judge usage per bucket of results, with when they were saved. */
export interface CostSeriesBucket {
  before: number;
  results: number;
  first_saved_at: string;
  last_saved_at: string;
  first_call_at: string | null;
  last_call_at: string | null;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_hits: number;
}

export interface SampleRow {
  sample_id: string;
  status: 'ok' | 'failed';
  reward: number | null;
  components: Record<string, number | null>;
  data_source: string | null;
  group: string | null;
  total_ms: number;
  errors: number;
  /** A failed row's first reason, cut (the sample page has them all). */
  first_error: string | null;
  warnings: number;
  response_preview: string | null;
  response_chars: number | null;
}

export interface Evidence {
  source: string;
  kind: string;
  score?: number;
  /** The source's own score when a calibration map turned it into `score`. */
  raw_score?: number;
  verdict: 'pass' | 'fail' | 'error' | 'abstain';
  detail?: unknown;
  veto: boolean;
  invalid: boolean;
  reason?: string;
  usage?: {
    calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    latency_ms: number;
    retries: number;
    cache_hits: number;
  };
  elapsed_ms: number;
}

/** One LLM call behind a piece of evidence; every text cut at 20,000 characters (`*_chars`: the whole length). */
export interface JudgeCall {
  role?: string;
  order?: 'forward' | 'backward';
  variant?: number;
  opponent?: string;
  messages: {
    role: 'system' | 'user' | 'assistant' | 'tool';
    content: string;
    content_chars?: number;
    tool_calls?: { id: string; name: string; arguments: unknown }[];
    tool_call_id?: string;
  }[];
  raw: string;
  raw_chars?: number;
  parsed?: unknown;
  parsed_chars?: number;
  parse_error?: string;
  finish_reason: string;
  latency_ms: number;
  /** Absent where the backend reported none. */
  prompt_tokens?: number;
  completion_tokens?: number;
  retries: number;
  cached: boolean;
  /** When the answer came (ISO 8601); absent in rows stored before it was recorded. */
  answered_at?: string;
  warnings?: string[];
}

export interface SampleDetail {
  result: {
    id: string;
    status: 'ok' | 'failed';
    reward: number | null;
    components: Record<string, number | null>;
    evidence: Evidence[];
    errors: string[];
    warnings: string[];
    data_source?: string;
    group?: string;
    timings: { total_ms: number };
  };
  /** The calls behind `result.evidence[i]`, in the order made. */
  judge_calls: JudgeCall[][];
  text: {
    prompt?: string | { role: string; content: string }[];
    response: string;
    response_chars: number;
    prompt_truncated: boolean;
    reference?: string | string[];
    reference_truncated: boolean;
  } | null;
}

export interface Histogram {
  source: string | null;
  min: number;
  max: number;
  counts: number[];
}

export type CompareFilter = 'changed' | 'improved' | 'regressed' | 'status';

type ComparedSide = Pick<SampleRow, 'status' | 'reward' | 'components'> & { excerpt: string | null };

export interface Comparison {
  a: RunOverview;
  b: RunOverview;
  common: number;
  only_a: number;
  only_b: number;
  changed: number;
  improved: number;
  regressed: number;
  status_changed: number;
  rows: { sample_id: string; a: ComparedSide; b: ComparedSide }[];
}

/** A failed API call, with the server's own message (a locked or damaged store says so here). */
export class ApiCallError extends Error {
  /** The API's error code (`run_not_found`, …), when it answered with one. */
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(`api/${path}`, signal ? { signal } : {});
  // An answer is read whole or fails (an abort while its body is read rejects here too, rather
  // than coming back as no data); only an error's body may be unreadable.
  if (res.ok) return (await res.json()) as T;
  const body = (await res.json().catch(() => undefined)) as
    | { error?: { message?: string; code?: string } }
    | undefined;
  throw new ApiCallError(body?.error?.message ?? `${res.status} ${res.statusText}`, body?.error?.code);
}

/**
 * The samples table's pages go first: while one is in flight, the statistics' polling waits
 * (`whenPagesIdle`) rather than queue its slower queries ahead of the next page on the store.
 */
let pagesInFlight = 0;
let pageWaiters: (() => void)[] = [];

/** One page of the samples table (see `whenPagesIdle`). */
export async function getPage<T>(path: string, signal?: AbortSignal): Promise<T> {
  pagesInFlight++;
  try {
    return await getJson<T>(path, signal);
  } finally {
    pagesInFlight--;
    if (pagesInFlight === 0) {
      const waiting = pageWaiters;
      pageWaiters = [];
      for (const resume of waiting) resume();
    }
  }
}

/** Resolves once no page of the samples table is in flight. */
export function whenPagesIdle(): Promise<void> {
  return pagesInFlight === 0 ? Promise.resolve() : new Promise((resolve) => pageWaiters.push(resolve));
}

export async function getText(path: string): Promise<string> {
  const res = await fetch(`api/${path}`);
  if (!res.ok) throw new ApiCallError(`${res.status} ${res.statusText}`);
  return res.text();
}

export const enc = encodeURIComponent;

/** `api/runs/<id>/by-source`: the run's results by data source (src/store/run-views.ts). */
export interface DataSourceBreakdown {
  data_sources: {
    data_source: string | null;
    results: number;
    failed: number;
    failure_rate: number;
    mean_reward: number | null;
  }[];
  truncated: boolean;
}

/** `api/runs/<id>/criteria`: one graded criterion over the run (src/view/criterion-tally.ts). */
export interface CriterionStat {
  source: string;
  kind: 'rubric' | 'medical_rubric' | 'claims';
  criterion: string;
  graded: number;
  passed: number;
  pass_rate: number;
  samples: number;
  missed_samples: number;
  missed_sample_ids: string[];
}
