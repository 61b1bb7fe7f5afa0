import type { RewardResult } from '../core/index.js';
import type { SampleText } from './run-views.js';

/**
 * A result as the SQLite store's `results` columns hold it, in the insert's column order, without
 * the run id and save time the writer adds. Encoding is most of the cost of a save besides the
 * insert itself, so the thread that verified a result encodes it (a `score` worker, a server's
 * event loop) and the thread that writes the file, or a `serve --processes` copy's shard, only
 * inserts.
 */
export type SqliteResultRow = readonly [
  sample_id: string,
  status: RewardResult['status'],
  reward: number | null,
  components: string,
  errors: string,
  warnings: string,
  data_source: string | null,
  group_id: string | null,
  total_ms: number,
  request_id: string | null,
  evidence: string,
  prompt: string | null,
  response: string | null,
  reference: string | null,
];

/** `results`' columns a save writes: the run id and save time, then a `SqliteResultRow`'s. */
export const RESULT_COLUMNS =
  'run_id, created_at, sample_id, status, reward, components, errors, warnings, data_source, group_id, total_ms, request_id, evidence, prompt, response, reference';

/** One `?` for each of RESULT_COLUMNS, for an insert's VALUES. */
export const RESULT_PLACEHOLDERS = RESULT_COLUMNS.split(',')
  .map(() => '?')
  .join(', ');

/** What a save of a sample already in the run replaces (its rowid aside: see the savers). */
export const RESULT_UPDATE = `status = excluded.status, reward = excluded.reward, components = excluded.components,
  errors = excluded.errors, warnings = excluded.warnings, data_source = excluded.data_source,
  group_id = excluded.group_id, total_ms = excluded.total_ms, created_at = excluded.created_at,
  request_id = excluded.request_id, evidence = excluded.evidence,
  prompt = excluded.prompt, response = excluded.response, reference = excluded.reference`;

/** Encodes results for `saveEncodedResults`; `requestId` and `samples` as `Store.saveResults` takes them. */
export function encodeSqliteResults(
  results: readonly RewardResult[],
  options: {
    readonly requestId?: string | readonly string[] | undefined;
    readonly samples?: readonly (SampleText | undefined)[] | undefined;
  } = {},
): SqliteResultRow[] {
  const { requestId, samples } = options;
  return results.map((result, i) => {
    const sample = samples?.[i];
    return [
      result.id,
      result.status,
      result.reward,
      JSON.stringify(result.components),
      JSON.stringify(result.errors),
      JSON.stringify(result.warnings),
      result.data_source ?? null,
      result.group ?? null,
      result.timings.total_ms,
      (typeof requestId === 'string' ? requestId : requestId?.[i]) ?? null,
      JSON.stringify(result.evidence),
      sample?.prompt === undefined ? null : JSON.stringify(sample.prompt),
      sample?.response ?? null,
      sample?.reference === undefined ? null : JSON.stringify(sample.reference),
    ];
  });
}
