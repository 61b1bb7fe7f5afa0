import type pg from 'pg';
import { importOptional, RewardKitError, type RewardResult } from '../core/index.js';
import { abandonedRunSummary } from './abandoned-run-summary.js';
import { maskUrlPassword } from './mask-url-password.js';
import { newRunId } from './new-run-id.js';
import { migratePostgres } from './postgres-migrate.js';
import { RESULT_COLUMNS, RUN_COLUMNS, type RunRow, toRun } from './postgres-rows.js';
import { postgresRunViews } from './postgres-run-views.js';
import { saveBatch } from './postgres-save-batch.js';
import { escapeText, jsonParam, parseJsonColumn, unescapeText } from './postgres-text-escape.js';
import { isPostgresUnavailable } from './postgres-unavailable.js';
import { DEFAULT_RUN_LEASE_MS, startRunLease } from './run-lease.js';
import { createRunMemo, LISTS_KEPT } from './run-memo.js';
import { type RunVersion, type StoredSourceStats, sourceStatsKey } from './run-version.js';
import type { SampleText } from './run-views.js';
import { labelRow, type SampleLabel } from './sample-label.js';
import { specHash } from './spec-hash.js';
import type { NewRun, SourceStat, Store } from './store.js';
import {
  resultFromRow,
  type StoredResultRow,
  type StoredSourceStatRow,
  sourceStatFromRow,
} from './stored-rows.js';

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). Each `rewardkit serve` replica holds its own pool. */
  readonly maxConnections?: number;
  /** How long to wait for a connection before failing, in ms (default 10 000). */
  readonly connectTimeoutMs?: number;
  /**
   * Longest one statement may run, in ms (default 60 000): the server cancels it then, and the
   * client gives up a second later on a server that does not answer at all (stopped, hung, cut
   * off). Migrations are exempt: they wait as long as they take.
   */
  readonly statementTimeoutMs?: number;
  /**
   * A running run whose process has not renewed its heartbeat for this long is closed as
   * `interrupted` by the next store that opens or beats (default 60 000 ms; see `startRunLease`).
   */
  readonly leaseMs?: number;
}

const SAVE_ATTEMPTS = 5;

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * Opens a PostgreSQL store at `url` (`postgres://user:password@host:port/database`): connects,
 * then applies missing schema steps under an advisory lock, so replicas starting at once migrate
 * once. Several processes may share one database; each sees the others' runs, results, cache and
 * state documents.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const where = maskUrlPassword(url);
  const fail = (doing: string, error: unknown): never => {
    if (isPostgresUnavailable(error)) {
      throw new RewardKitError(
        'RK_STORE_UNAVAILABLE',
        `Store ${where}: ${doing} failed: ${errorText(error)}`,
        { cause: error, isRetryable: true },
      );
    }
    throw new RewardKitError('RK_STORE', `Store ${where}: ${doing} failed: ${errorText(error)}`, {
      cause: error,
    });
  };
  const statementTimeoutMs = options.statementTimeoutMs ?? 60_000;
  const leaseMs = options.leaseMs ?? DEFAULT_RUN_LEASE_MS;
  // Loaded on first use: SQLite users (every CLI command opens a store) never pay for it.
  const { default: postgres } = await importOptional('postgres', () => import('pg'));
  const pool = new postgres.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // The server cancels a statement at its timeout; a server that answers nothing (stopped, hung)
    // is given up on by the client a second later, so no request waits on it indefinitely.
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 1000,
    // A peer that vanished without closing the connection (a cut network) is found by TCP.
    keepAlive: true,
    // Idle connections must not keep a CLI process alive after its work (or an error) is done;
    // a server stays alive through its own listening socket.
    allowExitOnIdle: true,
  });
  // An idle connection that dies (server restart, network) is reported on the pool; without a
  // listener Node would crash the process. The pool drops that connection and the next query
  // opens a new one or fails with its own, reported, error.
  pool.on('error', () => {});
  try {
    await migratePostgres(pool, where);
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof RewardKitError) throw error;
    fail('opening', error);
  }

  const query = async <Row extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
    client: Queryable = pool,
  ): Promise<Row[]> => {
    try {
      const { rows } = await client.query<Row>(text, values.map(escapeParam));
      return rows.map(unescapeRow);
    } catch (error) {
      return fail(text.trim().split(/\s/, 1)[0] as string, error);
    }
  };

  const transaction = async (work: (client: pg.PoolClient) => Promise<void>): Promise<void> => {
    const client = await pool.connect().catch((error: unknown) => fail('connecting', error));
    // A connection lost between two statements is reported here, then by the next statement.
    const ignore = () => {};
    client.on('error', ignore);
    let broken = false;
    try {
      await query('BEGIN', [], client);
      await work(client);
      await query('COMMIT', [], client);
    } catch (error) {
      // A server that is gone or hung would not answer the rollback either; the connection is
      // closed instead, which rolls the transaction back on a server that is still there.
      broken =
        RewardKitError.isInstance(error) && error.code === 'RK_STORE_UNAVAILABLE'
          ? true
          : await client.query('ROLLBACK').then(
              () => false,
              () => true,
            );
      throw error;
    } finally {
      client.off('error', ignore);
      // A connection that cannot even roll back is closed rather than handed to the next caller.
      client.release(broken);
    }
  };

  const toResults = (rows: StoredResultRow[]): RewardResult[] =>
    rows.map((row) => resultFromRow(row, parseJsonColumn));

  const putState = async (key: string, value: unknown): Promise<void> => {
    await query(
      `INSERT INTO state (key, value, updated_at) VALUES ($1, $2::jsonb, $3)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [key, jsonParam(value), new Date().toISOString()],
    );
  };
  // Both from the results_position index (run_id, seq).
  const versionOf = async (runId: string, client?: Queryable): Promise<RunVersion> => {
    const [row] = await query<{ version: string }>(
      `SELECT COUNT(*) || ':' || COALESCE(SUM(seq), 0) AS version FROM results WHERE run_id = $1`,
      [runId],
      client,
    );
    return row?.version ?? '0:0';
  };
  // Not the largest seq, as SQLite's memo reads its largest rowid: sequence values are taken before
  // their transactions commit, in any order, so a row may appear below the largest seq seen.
  const memo = createRunMemo((runId) => versionOf(runId));
  const views = postgresRunViews(
    query,
    memo,
    createRunMemo((runId) => versionOf(runId), LISTS_KEPT),
  );
  // The database's clock, not this process's, ages heartbeats: replicas' clocks may differ.
  const closeStaleRuns = async (): Promise<string[]> => {
    const stale = await query<{ id: string }>(
      `SELECT id FROM runs WHERE status = 'running'
         AND COALESCE(heartbeat_at, created_at) < now() - make_interval(secs => $1::float8 / 1000)`,
      [leaseMs],
    );
    const closed: string[] = [];
    for (const { id } of stale) {
      const summary = abandonedRunSummary(await views.runTotals(id), leaseMs);
      // Checked again as it is closed: the owner may have renewed, or another store closed it.
      const [row] = await query<{ id: string }>(
        `UPDATE runs SET status = 'interrupted', finished_at = now(), summary = $2::jsonb
         WHERE id = $1 AND status = 'running'
           AND COALESCE(heartbeat_at, created_at) < now() - make_interval(secs => $3::float8 / 1000)
         RETURNING id`,
        [id, jsonParam(summary), leaseMs],
      );
      if (row) closed.push(row.id);
    }
    return closed;
  };
  try {
    await closeStaleRuns();
  } catch (error) {
    // A role that may only read, or a read-only standby, opens to read: closing is left to others.
    if (!cannotWrite(error)) {
      await pool.end().catch(() => {});
      throw error;
    }
  }
  const lease = startRunLease({
    leaseMs,
    // A run the lease closed while its owner was cut off from the store is running again.
    renew: async (ids) => {
      await query(
        `UPDATE runs SET heartbeat_at = now(), status = 'running', finished_at = NULL,
                         summary = CASE WHEN status = 'interrupted' THEN NULL ELSE summary END
         WHERE id = ANY($1::text[]) AND status <> 'finished'`,
        [ids],
      );
    },
    closeStale: closeStaleRuns,
  });
  const liveSourceStats = async (runId: string, client?: Queryable): Promise<SourceStat[]> => {
    // Sums come back as float8 because pg returns bigint as a string.
    const rows = await query<StoredSourceStatRow>(
      `SELECT source,
              COUNT(*) FILTER (WHERE NOT invalid AND score IS NOT NULL)::float8 AS count,
              AVG(score) FILTER (WHERE NOT invalid) AS mean,
              COUNT(*) FILTER (WHERE invalid)::float8 AS invalid,
              SUM(llm_calls)::float8 AS llm_calls,
              SUM(prompt_tokens)::float8 AS prompt_tokens,
              SUM(completion_tokens)::float8 AS completion_tokens,
              SUM(cache_hits)::float8 AS cache_hits,
              SUM(cost_usd)::float8 AS cost_usd
       FROM (SELECT e.position, e.value ->> 'source' AS source, (e.value ->> 'score')::float8 AS score,
                    (e.value ->> 'invalid')::boolean AS invalid,
                    (e.value -> 'usage' ->> 'calls')::float8 AS llm_calls,
                    (e.value -> 'usage' ->> 'prompt_tokens')::float8 AS prompt_tokens,
                    (e.value -> 'usage' ->> 'completion_tokens')::float8 AS completion_tokens,
                    (e.value -> 'usage' ->> 'cache_hits')::float8 AS cache_hits,
                    (e.value -> 'usage' ->> 'cost_usd')::float8 AS cost_usd
             FROM results, jsonb_array_elements(results.evidence) WITH ORDINALITY AS e(value, position)
             WHERE results.run_id = $1) AS pieces
       GROUP BY source ORDER BY MIN(position), source`,
      [runId],
      client,
    );
    return rows.map(sourceStatFromRow);
  };

  return {
    kind: 'postgres',
    async createRun(run: NewRun) {
      const rows = await query<RunRow>(
        `INSERT INTO runs (id, created_at, finished_at, spec_name, spec, spec_hash, input, output, status, summary,
                           heartbeat_at)
         VALUES ($1, $2, NULL, $3, $4::jsonb, $5, $6, $7, 'running', NULL, now()) RETURNING ${RUN_COLUMNS}`,
        [
          run.id ?? newRunId(),
          new Date().toISOString(),
          run.spec_name,
          jsonParam(run.spec),
          specHash(run.spec),
          run.input ?? null,
          run.output ?? null,
        ],
      );
      const created = toRun(rows[0] as RunRow);
      lease.own(created.id);
      return created;
    },
    async getRun(id) {
      const [row] = await query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = $1`, [id]);
      return row && toRun(row);
    },
    async listRuns(options = {}) {
      const rows = await query<RunRow>(
        `SELECT ${RUN_COLUMNS} FROM runs ORDER BY created_at DESC, id DESC LIMIT $1`,
        [options.limit ?? 50],
      );
      return rows.map(toRun);
    },
    async findResumableRun(options) {
      // Find and reopen in one statement, so two replicas never both see the run as finished.
      const [row] = await query<RunRow>(
        `UPDATE runs SET status = 'running', finished_at = NULL, heartbeat_at = now()
         WHERE id = (SELECT id FROM runs WHERE spec_hash = $1 AND input IS NOT DISTINCT FROM $2
                     AND output IS NOT DISTINCT FROM $3 ORDER BY created_at DESC, id DESC LIMIT 1)
         RETURNING ${RUN_COLUMNS}`,
        [options.spec_hash, options.input ?? null, options.output ?? null],
      );
      if (row) lease.own(row.id);
      return row && toRun(row);
    },
    async finishRun(id, summary, status = 'finished', sources) {
      lease.release(id);
      const now = new Date().toISOString();
      await query('UPDATE runs SET finished_at = $1, status = $2, summary = $3::jsonb WHERE id = $4', [
        now,
        status,
        jsonParam(summary),
        id,
      ]);
      // A finished run's per-source statistics are kept, so that reading them is one lookup
      // (an interrupted run is left as it is: stopping must stay quick, and it is often resumed).
      if (status !== 'finished') return;
      let kept: StoredSourceStats | undefined;
      // The statistics and the version they cover from one snapshot, even with replicas saving.
      await transaction(async (client) => {
        await query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ', [], client);
        kept = {
          version: await versionOf(id, client),
          sources: sources ? [...sources] : await liveSourceStats(id, client),
        };
      });
      await putState(sourceStatsKey(id), kept);
    },
    async saveResults(runId, results, options = {}) {
      if (results.length === 0) return;
      // One statement cannot upsert a key twice; the last save of an id wins, as it would
      // saved one at a time, and takes the place of its last occurrence.
      const requestIdOf = (i: number) =>
        typeof options.requestId === 'string' ? options.requestId : options.requestId?.[i];
      const latest = new Map<
        string,
        { result: RewardResult; requestId: string | undefined; sample: SampleText | undefined }
      >();
      for (const [i, result] of results.entries()) {
        latest.delete(result.id);
        latest.set(result.id, { result, requestId: requestIdOf(i), sample: options.samples?.[i] });
      }
      const batch = [...latest.values()];
      // Replicas saving overlapping ids in different orders can deadlock; PostgreSQL aborts one
      // transaction, which is safe to run again.
      for (let attempt = 1; ; attempt++) {
        try {
          await transaction((client) => saveBatch(client, query, runId, batch));
          return;
        } catch (error) {
          if (attempt >= SAVE_ATTEMPTS || !isRetryableConflict(error)) throw error;
          // A random pause, so the two transactions do not collide again in step.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * attempt));
        }
      }
    },
    async getResult(runId, sampleId) {
      const rows = await query<StoredResultRow>(
        `SELECT ${RESULT_COLUMNS} FROM results WHERE run_id = $1 AND sample_id = $2`,
        [runId, sampleId],
      );
      return toResults(rows)[0];
    },
    async listResults(runId, options = {}) {
      const values: unknown[] = [runId];
      let where = 'run_id = $1';
      if (options.status) {
        values.push(options.status);
        where += ` AND status = $${values.length}`;
      }
      if (options.requestId) {
        values.push(options.requestId);
        where += ` AND request_id = $${values.length}`;
      }
      values.push(options.limit ?? null, options.offset ?? 0);
      const rows = await query<StoredResultRow>(
        `SELECT ${RESULT_COLUMNS} FROM results WHERE ${where} ORDER BY seq
         LIMIT $${values.length - 1} OFFSET $${values.length}`,
        values,
      );
      return toResults(rows);
    },
    async completedIds(runId) {
      const rows = await query<{ sample_id: string }>('SELECT sample_id FROM results WHERE run_id = $1', [
        runId,
      ]);
      return new Set(rows.map((r) => r.sample_id));
    },
    async listFailures(runId) {
      const rows = await query<{ sample_id: string; errors: string }>(
        `SELECT sample_id, errors::text AS errors FROM results WHERE run_id = $1 AND status = 'failed'
         ORDER BY sample_id`,
        [runId],
      );
      return rows.map((row) => ({
        sample_id: row.sample_id,
        reasons: parseJsonColumn(row.errors) as string[],
      }));
    },
    async sourceStats(runId) {
      return memo.get(runId, 'sources', async (version) => {
        const [row] = await query<{ value: string }>(
          'SELECT value::text AS value FROM state WHERE key = $1',
          [sourceStatsKey(runId)],
        );
        const kept = row === undefined ? undefined : (parseJsonColumn(row.value) as StoredSourceStats);
        return kept?.version === version ? [...kept.sources] : liveSourceStats(runId);
      });
    },
    ...views,
    closeStaleRuns,
    async ping() {
      await query('SELECT 1', []);
    },
    async getCachedResponse(key, now, maxAgeMs) {
      const [row] = await query<{ value: string }>(
        `SELECT value FROM llm_cache WHERE key = $1 AND (expires_at IS NULL OR expires_at > $2)
         AND ($3::float8 IS NULL OR created_at > $3::float8)`,
        [key, now, maxAgeMs === undefined ? null : now - maxAgeMs],
      );
      return row?.value;
    },
    async putCachedResponse(key, value, now, expiresAt) {
      await query(
        `INSERT INTO llm_cache (key, value, created_at, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at,
           expires_at = excluded.expires_at`,
        [key, value, now, expiresAt],
      );
    },
    async getState(key) {
      const [row] = await query<{ value: string }>('SELECT value::text AS value FROM state WHERE key = $1', [
        key,
      ]);
      return row === undefined ? undefined : (parseJsonColumn(row.value) as unknown);
    },
    putState,
    async putLabel(runId, sampleId, label) {
      const row = labelRow(runId, sampleId, label, new Date());
      await query(
        `INSERT INTO labels (run_id, sample_id, kind, score, note, labeled_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (run_id, sample_id) DO UPDATE SET kind = excluded.kind, score = excluded.score,
           note = excluded.note, labeled_at = excluded.labeled_at`,
        [row.run_id, row.sample_id, row.kind, row.score, row.note, row.labeled_at],
      );
      return row;
    },
    async listLabels(runId, options = {}) {
      const rows = await query<Omit<SampleLabel, 'labeled_at'> & { labeled_at: Date }>(
        `SELECT run_id, sample_id, kind, score, note, labeled_at FROM labels
         WHERE run_id = $1 AND ($2::text IS NULL OR sample_id = $2) ORDER BY sample_id COLLATE "C"`,
        [runId, options.sampleId ?? null],
      );
      return rows.map((row) => ({ ...row, labeled_at: row.labeled_at.toISOString() }));
    },
    async close() {
      lease.stop();
      if (!pool.ended) await pool.end();
    },
  };
}

// A failed connect to `localhost` is an AggregateError (one per address) with an empty message.
const errorText = (error: unknown): string => {
  const message = (error as Error)?.message;
  if (message) return message;
  if (error instanceof AggregateError) return error.errors.map(errorText).join('; ');
  return String(error);
};

function escapeParam(value: unknown): unknown {
  if (typeof value === 'string') return escapeText(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? escapeText(v) : v));
  return value;
}

function unescapeRow<Row extends pg.QueryResultRow>(row: Row): Row {
  for (const key of Object.keys(row)) {
    const value = row[key];
    if (typeof value === 'string') (row as Record<string, unknown>)[key] = unescapeText(value);
  }
  return row;
}

/** Insufficient privilege, or a read-only transaction (a hot standby): this connection cannot write. */
function cannotWrite(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return code === '42501' || code === '25006';
}

/** A deadlock or serialization failure: the transaction was rolled back and may run again. */
function isRetryableConflict(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return code === '40P01' || code === '40001';
}
