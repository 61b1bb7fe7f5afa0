import { type Evidence, type RewardResult, RewardResultSchema } from '../core/index.js';
import type { SourceStat } from './store.js';

/**
 * The row shapes both stores read back, and their mapping to rewardkit's records. The backends
 * differ only in how a JSON column is decoded and how a boolean is stored (SQLite: 0/1).
 */

/** Decodes a JSON column as the backend stored it. */
export type JsonColumnReader = (text: string) => unknown;

export interface StoredResultRow {
  sample_id: string;
  status: 'ok' | 'failed';
  reward: number | null;
  components: string;
  errors: string;
  warnings: string;
  data_source: string | null;
  group_id: string | null;
  total_ms: number;
  /** The result's evidence array, as JSON. */
  evidence: string;
}

export interface StoredEvidenceRow {
  sample_id: string;
  source: string;
  kind: string;
  score: number | null;
  verdict: Evidence['verdict'];
  invalid: boolean | number;
  veto: boolean | number;
  reason: string | null;
  detail: string | null;
  elapsed_ms: number;
  llm_calls: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  llm_latency_ms: number | null;
  llm_retries: number | null;
  cache_hits: number | null;
}

/** One row of the per-source statistics query, with the LLM usage sums still flat. */
export type StoredSourceStatRow = Omit<SourceStat, 'usage'> & {
  llm_calls: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cache_hits: number | null;
  cost_usd: number | null;
};

/** The mapping of the per-piece evidence rows of older schemas, kept for their migration. */
export function evidenceFromRow(e: StoredEvidenceRow, readJson: JsonColumnReader): Evidence {
  return {
    source: e.source,
    kind: e.kind,
    ...(e.score !== null && { score: e.score }),
    verdict: e.verdict,
    ...(e.detail !== null && { detail: readJson(e.detail) }),
    veto: e.veto === true || e.veto === 1,
    invalid: e.invalid === true || e.invalid === 1,
    ...(e.reason !== null && { reason: e.reason }),
    ...(e.llm_calls !== null && {
      usage: {
        calls: e.llm_calls,
        prompt_tokens: e.prompt_tokens ?? 0,
        completion_tokens: e.completion_tokens ?? 0,
        latency_ms: e.llm_latency_ms ?? 0,
        retries: e.llm_retries ?? 0,
        cache_hits: e.cache_hits ?? 0,
      },
    }),
    elapsed_ms: e.elapsed_ms,
  };
}

export function resultFromRow(row: StoredResultRow, readJson: JsonColumnReader): RewardResult {
  return RewardResultSchema.parse({
    spec: 'rk/v1',
    id: row.sample_id,
    status: row.status,
    reward: row.reward,
    components: readJson(row.components),
    evidence: readJson(row.evidence),
    errors: readJson(row.errors),
    warnings: readJson(row.warnings),
    ...(row.data_source !== null && { data_source: row.data_source }),
    ...(row.group_id !== null && { group: row.group_id }),
    timings: { total_ms: row.total_ms },
  });
}

export function sourceStatFromRow({
  llm_calls,
  prompt_tokens,
  completion_tokens,
  cache_hits,
  cost_usd,
  ...stat
}: StoredSourceStatRow): SourceStat {
  return {
    ...stat,
    ...(llm_calls !== null && {
      usage: {
        calls: llm_calls,
        prompt_tokens: prompt_tokens ?? 0,
        completion_tokens: completion_tokens ?? 0,
        cache_hits: cache_hits ?? 0,
        ...(cost_usd !== null && cost_usd !== undefined && { cost_usd }),
      },
    }),
  };
}
