import { type Evidence, type RewardResult, RewardResultSchema } from '../core/index.js';
import { parseJsonColumn } from './postgres-text-escape.js';
import type { RunRecord } from './store.js';

/** Row shapes of the PostgreSQL store and their mapping back to rewardkit's records. */

// JSON columns are read back as text and parsed here, so that a JSON `null` stays distinct from
// SQL NULL (no value) and timestamps come back as the ISO strings the SQLite store returns.
export const RUN_COLUMNS = `id, created_at, finished_at, spec_name, spec::text AS spec, spec_hash, input, output,
  status, summary::text AS summary`;
export const RESULT_COLUMNS = `sample_id, status, reward, components::text AS components, errors::text AS errors,
  warnings::text AS warnings, data_source, group_id, total_ms`;
export const EVIDENCE_COLUMNS = `sample_id, source, kind, score, verdict, invalid, veto, reason, detail::text AS detail,
  elapsed_ms, llm_calls, prompt_tokens, completion_tokens, llm_latency_ms, llm_retries, cache_hits`;

export interface RunRow {
  id: string;
  created_at: Date;
  finished_at: Date | null;
  spec_name: string;
  spec: string;
  spec_hash: string;
  input: string | null;
  output: string | null;
  status: RunRecord['status'];
  summary: string | null;
}

export interface ResultRow {
  sample_id: string;
  status: 'ok' | 'failed';
  reward: number | null;
  components: string;
  errors: string;
  warnings: string;
  data_source: string | null;
  group_id: string | null;
  total_ms: number;
}

export interface EvidenceRow {
  sample_id: string;
  source: string;
  kind: string;
  score: number | null;
  verdict: Evidence['verdict'];
  invalid: boolean;
  veto: boolean;
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

export function toRun(row: RunRow): RunRecord {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at === null ? null : row.finished_at.toISOString(),
    spec: parseJsonColumn(row.spec) as unknown,
    summary: row.summary === null ? null : (parseJsonColumn(row.summary) as unknown),
  };
}

export function toEvidence(e: EvidenceRow): Evidence {
  return {
    source: e.source,
    kind: e.kind,
    ...(e.score !== null && { score: e.score }),
    verdict: e.verdict,
    ...(e.detail !== null && { detail: parseJsonColumn(e.detail) as unknown }),
    veto: e.veto,
    invalid: e.invalid,
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

export function toResult(row: ResultRow, evidence: Evidence[]): RewardResult {
  return RewardResultSchema.parse({
    spec: 'rk/v1',
    id: row.sample_id,
    status: row.status,
    reward: row.reward,
    components: parseJsonColumn(row.components),
    evidence,
    errors: parseJsonColumn(row.errors),
    warnings: parseJsonColumn(row.warnings),
    ...(row.data_source !== null && { data_source: row.data_source }),
    ...(row.group_id !== null && { group: row.group_id }),
    timings: { total_ms: row.total_ms },
  });
}
