import type pg from 'pg';
import { RewardKitError } from '../core/index.js';
import { postgresMigrations } from './postgres-migrations.js';

// Any fixed 64-bit number; every rewardkit opener takes the same one, so migrations run one at a time.
const MIGRATION_LOCK = 7_249_031_118_540_112n;
// setTimeout's largest delay: a migration of a large table, or the wait for another replica's, is
// not cut off by the store's statement timeout (the client-side one is per query, so it is lifted here).
const NO_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Applies the missing schema steps in one transaction under an advisory lock: a second replica
 * opening at the same moment waits, then finds nothing to do. `where` names the store in errors.
 */
export async function migratePostgres(pool: pg.Pool, where: string): Promise<void> {
  const client = await pool.connect();
  const run = <Row extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    client.query<Row>({ text, ...(values && { values }), query_timeout: NO_TIMEOUT_MS } as pg.QueryConfig);
  try {
    await run('BEGIN');
    await run('SET LOCAL statement_timeout = 0');
    // Held to the end of the transaction: a second replica waits here, then finds nothing to do.
    await run('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    // Created only when missing: even CREATE TABLE IF NOT EXISTS needs the CREATE privilege, which
    // a role that only reads and writes an already migrated store need not have.
    const [table] = (await run<{ found: string | null }>("SELECT to_regclass('schema_migrations') AS found"))
      .rows;
    if (!table?.found) {
      await run(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)',
      );
    }
    const [row] = (
      await run<{ current: number | null }>('SELECT MAX(version) AS current FROM schema_migrations')
    ).rows;
    const current = row?.current ?? 0;
    const latest = postgresMigrations.at(-1)?.version ?? 0;
    if (current > latest) {
      throw new RewardKitError(
        'RK_STORE',
        `The store ${where} has schema version ${current}, newer than this rewardkit understands (${latest}); upgrade rewardkit or use another --store`,
      );
    }
    for (const step of postgresMigrations) {
      if (step.version <= current) continue;
      await run(step.sql);
      await run('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, now())', [step.version]);
    }
    await run('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
