import type pg from 'pg';
import type { RewardResult } from '../core/index.js';
import { jsonParam } from './postgres-text-escape.js';
import type { SampleText } from './run-views.js';

/** Runs one statement on `client` (escaping, unescaping, naming the store in errors). */
export type PostgresQuery = <Row extends pg.QueryResultRow>(
  text: string,
  values: unknown[],
  client?: Pick<pg.PoolClient, 'query'>,
) => Promise<Row[]>;

/**
 * Writes one batch in the caller's transaction as one upsert over arrays, evidence included as a
 * JSONB column, whatever the batch size. A row saved again gets a new `seq`, so it lists last, as
 * SQLite's store moves it last.
 */
export async function saveBatch(
  client: pg.PoolClient,
  query: PostgresQuery,
  runId: string,
  rows: readonly { result: RewardResult; requestId: string | undefined; sample: SampleText | undefined }[],
): Promise<void> {
  const results = rows.map((row) => row.result);
  await query(
    `INSERT INTO results (run_id, sample_id, status, reward, components, errors, warnings, data_source,
                          group_id, total_ms, created_at, request_id, evidence, prompt, response,
                          reference)
     SELECT $1, u.sample_id, u.status, u.reward, u.components::jsonb, u.errors::jsonb, u.warnings::jsonb,
            u.data_source, u.group_id, u.total_ms, $2, u.request_id, u.evidence::jsonb, u.prompt, u.response,
            u.reference
     FROM unnest($3::text[], $4::text[], $5::float8[], $6::text[], $7::text[], $8::text[], $9::text[],
                 $10::text[], $11::float8[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])
          WITH ORDINALITY AS u(sample_id, status, reward, components, errors, warnings, data_source,
                               group_id, total_ms, evidence, request_id, prompt, response, reference, ord)
     ORDER BY u.ord
     ON CONFLICT (run_id, sample_id) DO UPDATE SET
       status = excluded.status, reward = excluded.reward, components = excluded.components,
       errors = excluded.errors, warnings = excluded.warnings, data_source = excluded.data_source,
       group_id = excluded.group_id, total_ms = excluded.total_ms, created_at = excluded.created_at,
       request_id = excluded.request_id, evidence = excluded.evidence, prompt = excluded.prompt,
       response = excluded.response, reference = excluded.reference, seq = DEFAULT`,
    [
      runId,
      new Date().toISOString(),
      results.map((r) => r.id),
      results.map((r) => r.status),
      results.map((r) => r.reward),
      results.map((r) => jsonParam(r.components)),
      results.map((r) => jsonParam(r.errors)),
      results.map((r) => jsonParam(r.warnings)),
      results.map((r) => r.data_source ?? null),
      results.map((r) => r.group ?? null),
      results.map((r) => r.timings.total_ms),
      results.map((r) => jsonParam(r.evidence)),
      rows.map((row) => row.requestId ?? null),
      rows.map((row) => (row.sample?.prompt === undefined ? null : JSON.stringify(row.sample.prompt))),
      rows.map((row) => row.sample?.response ?? null),
      rows.map((row) => (row.sample?.reference === undefined ? null : JSON.stringify(row.sample.reference))),
    ],
    client,
  );
}
