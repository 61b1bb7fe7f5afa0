import type pg from 'pg';
import type { RewardResult } from '../core/index.js';
import { jsonParam } from './postgres-text-escape.js';

/** Runs one statement on `client` (escaping, unescaping, naming the store in errors). */
export type PostgresQuery = <Row extends pg.QueryResultRow>(
  text: string,
  values: unknown[],
  client?: Pick<pg.PoolClient, 'query'>,
) => Promise<Row[]>;

/**
 * Writes one batch in the caller's transaction: results by upsert (a row saved again gets a new
 * `seq`, so it lists last, as SQLite's INSERT OR REPLACE gives it a new rowid), then the batch's
 * evidence and failures replaced. Each is one statement over arrays, whatever the batch size.
 */
export async function saveBatch(
  client: pg.PoolClient,
  query: PostgresQuery,
  runId: string,
  results: RewardResult[],
  requestId: string | undefined,
): Promise<void> {
  const ids = results.map((r) => r.id);
  await query(
    `INSERT INTO results (run_id, sample_id, status, reward, components, errors, warnings, data_source,
                          group_id, total_ms, created_at, request_id)
     SELECT $1, u.sample_id, u.status, u.reward, u.components::jsonb, u.errors::jsonb, u.warnings::jsonb,
            u.data_source, u.group_id, u.total_ms, $2, $3
     FROM unnest($4::text[], $5::text[], $6::float8[], $7::text[], $8::text[], $9::text[], $10::text[],
                 $11::text[], $12::float8[])
          WITH ORDINALITY AS u(sample_id, status, reward, components, errors, warnings, data_source,
                               group_id, total_ms, ord)
     ORDER BY u.ord
     ON CONFLICT (run_id, sample_id) DO UPDATE SET
       status = excluded.status, reward = excluded.reward, components = excluded.components,
       errors = excluded.errors, warnings = excluded.warnings, data_source = excluded.data_source,
       group_id = excluded.group_id, total_ms = excluded.total_ms, created_at = excluded.created_at,
       request_id = excluded.request_id, seq = DEFAULT`,
    [
      runId,
      new Date().toISOString(),
      requestId ?? null,
      ids,
      results.map((r) => r.status),
      results.map((r) => r.reward),
      results.map((r) => jsonParam(r.components)),
      results.map((r) => jsonParam(r.errors)),
      results.map((r) => jsonParam(r.warnings)),
      results.map((r) => r.data_source ?? null),
      results.map((r) => r.group ?? null),
      results.map((r) => r.timings.total_ms),
    ],
    client,
  );
  await query('DELETE FROM evidence WHERE run_id = $1 AND sample_id = ANY($2::text[])', [runId, ids], client);
  await query('DELETE FROM failures WHERE run_id = $1 AND sample_id = ANY($2::text[])', [runId, ids], client);

  const evidence = results.flatMap((r) => r.evidence.map((e, position) => ({ id: r.id, position, e })));
  if (evidence.length > 0) {
    await query(
      `INSERT INTO evidence (run_id, sample_id, position, source, kind, score, verdict, invalid, veto, reason,
                             detail, elapsed_ms, llm_calls, prompt_tokens, completion_tokens, llm_latency_ms,
                             llm_retries, cache_hits)
       SELECT $1, u.sample_id, u.position, u.source, u.kind, u.score, u.verdict, u.invalid, u.veto, u.reason,
              u.detail::jsonb, u.elapsed_ms, u.llm_calls, u.prompt_tokens, u.completion_tokens,
              u.llm_latency_ms, u.llm_retries, u.cache_hits
       FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::float8[], $7::text[], $8::bool[],
                   $9::bool[], $10::text[], $11::text[], $12::float8[], $13::int[], $14::int[], $15::int[],
                   $16::float8[], $17::int[], $18::int[])
            AS u(sample_id, position, source, kind, score, verdict, invalid, veto, reason, detail,
                 elapsed_ms, llm_calls, prompt_tokens, completion_tokens, llm_latency_ms, llm_retries,
                 cache_hits)`,
      [
        runId,
        evidence.map((x) => x.id),
        evidence.map((x) => x.position),
        evidence.map((x) => x.e.source),
        evidence.map((x) => x.e.kind),
        evidence.map((x) => x.e.score ?? null),
        evidence.map((x) => x.e.verdict),
        evidence.map((x) => x.e.invalid),
        evidence.map((x) => x.e.veto),
        evidence.map((x) => x.e.reason ?? null),
        evidence.map((x) => (x.e.detail === undefined ? null : jsonParam(x.e.detail))),
        evidence.map((x) => x.e.elapsed_ms),
        evidence.map((x) => x.e.usage?.calls ?? null),
        evidence.map((x) => x.e.usage?.prompt_tokens ?? null),
        evidence.map((x) => x.e.usage?.completion_tokens ?? null),
        evidence.map((x) => x.e.usage?.latency_ms ?? null),
        evidence.map((x) => x.e.usage?.retries ?? null),
        evidence.map((x) => x.e.usage?.cache_hits ?? null),
      ],
      client,
    );
  }

  const failures = results
    .filter((r) => r.status === 'failed')
    .flatMap((r) => r.errors.map((reason, position) => ({ id: r.id, position, reason })));
  if (failures.length > 0) {
    await query(
      `INSERT INTO failures (run_id, sample_id, position, reason)
       SELECT $1, u.sample_id, u.position, u.reason FROM unnest($2::text[], $3::int[], $4::text[])
         AS u(sample_id, position, reason)`,
      [runId, failures.map((f) => f.id), failures.map((f) => f.position), failures.map((f) => f.reason)],
      client,
    );
  }
}
