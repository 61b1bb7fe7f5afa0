import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import type { RewardResult } from '../core/index.js';
import { postgresMigrations } from './postgres-migrations.js';
import { openPostgresStore } from './postgres-store.js';
import { startTestPostgres } from './test-utils/start-test-postgres.js';
import {
  expectAbandonedRunsClosed,
  expectKeptSourceStatsRead,
  judgedResult,
  okResult,
  runStoreConformance,
} from './test-utils/store-conformance.js';

const server = await startTestPostgres();
afterAll(() => server.stop());

const freshStore = async () => {
  if (!server.available) throw new Error('unreachable: the suite is skipped without a server');
  return openPostgresStore(await server.createDatabase(), { maxConnections: 4 });
};

describe.skipIf(!server.available)('openPostgresStore', () => {
  runStoreConformance(freshStore);

  test('should let two replicas on one database see each other’s results, cache and state', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    const run = await a.createRun({ spec_name: 'serve', spec: { k: 1 } });
    await a.saveResults(run.id, [okResult('x', 1)], { requestId: 'req-a' });
    await b.saveResults(run.id, [judgedResult], { requestId: 'req-b' });
    expect((await b.listResults(run.id)).map((r) => r.id)).toEqual(['x', 'j']);
    expect(await a.getResult(run.id, 'j')).toEqual(judgedResult);
    expect((await a.listResults(run.id, { requestId: 'req-b' })).map((r) => r.id)).toEqual(['j']);
    await b.putCachedResponse('key', '{"content":"cached"}', 1000, null);
    expect(await a.getCachedResponse('key', 2000)).toBe('{"content":"cached"}');
    await a.putState('clipo-head/run', { step: 1 });
    await b.putState('clipo-head/run', { step: 2 });
    expect(await a.getState('clipo-head/run')).toEqual({ step: 2 });
    await b.finishRun(run.id, { rows: 2 });
    expect(await a.getRun(run.id)).toMatchObject({ status: 'finished', summary: { rows: 2 } });
    await Promise.all([a.close(), b.close()]);
  });

  test("should read a finished run's kept statistics from another replica", async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const store = await openPostgresStore(url);
    await expectKeptSourceStatsRead(store, () => openPostgresStore(url));
    await store.close();
  });

  test('should let concurrent replicas write results of one run at once', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const replicas = await Promise.all([
      openPostgresStore(url),
      openPostgresStore(url),
      openPostgresStore(url),
    ]);
    const run = await (replicas[0] as (typeof replicas)[0]).createRun({ spec_name: 'serve', spec: {} });
    await Promise.all(
      replicas.flatMap((store, r) =>
        Array.from({ length: 5 }, (_, batch) =>
          store.saveResults(
            run.id,
            Array.from({ length: 20 }, (_, i) => okResult(`r${r}-b${batch}-${i}`, i % 2)),
            { requestId: `req-${r}-${batch}` },
          ),
        ),
      ),
    );
    expect((await (replicas[1] as (typeof replicas)[0]).completedIds(run.id)).size).toBe(300);
    await Promise.all(replicas.map((s) => s.close()));
  });

  test('should leave one whole result when replicas save the same ids at once, in any order', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    const run = await a.createRun({ spec_name: 'serve', spec: {} });
    const ids = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const withEvidence = (id: string, score: number) => ({
      ...okResult(id, score),
      evidence: Array.from({ length: score === 1 ? 2 : 3 }, (_, k) => ({
        ...(okResult(id, score).evidence[0] as RewardResult['evidence'][number]),
        source: `src${k}`,
      })),
    });
    await Promise.all(
      Array.from({ length: 6 }, (_, round) =>
        (round % 2 ? a : b).saveResults(
          run.id,
          (round % 2 ? ids : [...ids].reverse()).map((id) => withEvidence(id, round % 2)),
        ),
      ),
    );
    for (const result of await b.listResults(run.id)) {
      // Each result keeps exactly the evidence saved with it: 2 sources for reward 1, 3 for 0.
      expect(result.evidence).toHaveLength(result.reward === 1 ? 2 : 3);
    }
    expect((await a.completedIds(run.id)).size).toBe(40);
    await Promise.all([a.close(), b.close()]);
  });

  test('should migrate once when several replicas open a new database at the same moment', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore(url)));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(postgresMigrations.map(({ version }) => ({ version })));
    await client.end();
    await Promise.all(stores.map((s) => s.close()));
  });

  test('should open a migrated store as a role that may read and write but not create tables', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    await (await openPostgresStore(url)).close();
    const role = `rk_writer_${Math.random().toString(16).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    await admin.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
    await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
    try {
      const asRole = new URL(url);
      asRole.username = role;
      const store = await openPostgresStore(asRole.toString());
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [okResult('a', 1)]);
      expect(await store.getResult(run.id, 'a')).toEqual(okResult('a', 1));
      await store.close();
    } finally {
      await admin.query(`DROP OWNED BY ${role}`);
      await admin.query(`DROP ROLE ${role}`);
      await admin.end();
    }
  });

  test('should open for reading as a role that may only read, leaving an abandoned run to a writer', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const writer = await openPostgresStore(url, { leaseMs: 100 });
    const run = await writer.createRun({ spec_name: 's', spec: {} });
    await writer.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const role = `rk_reader_${Math.random().toString(16).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
    await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role}`);
    try {
      const asRole = new URL(url);
      asRole.username = role;
      const reader = await openPostgresStore(asRole.toString(), { leaseMs: 100 });
      expect((await reader.getRun(run.id))?.status).toBe('running');
      await reader.close();
    } finally {
      await admin.query(`DROP OWNED BY ${role}`);
      await admin.query(`DROP ROLE ${role}`);
      await admin.end();
    }
    const closer = await openPostgresStore(url, { leaseMs: 100 });
    expect((await closer.getRun(run.id))?.status).toBe('interrupted');
    await closer.close();
  });

  test('should move version-1 evidence and failure rows into the results row exactly', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)',
    );
    await client.query(postgresMigrations[0]?.sql ?? '');
    await client.query(`
      INSERT INTO schema_migrations VALUES (1, now());
      INSERT INTO runs (id, created_at, spec_name, spec, spec_hash, status) VALUES ('r', now(), 's', '{}', 'h', 'finished');
      INSERT INTO results (run_id, sample_id, status, reward, components, errors, warnings, total_ms, created_at)
        VALUES ('r', 'j', 'ok', 0.5, '{}', '[]', '[]', 3, now()), ('r', 'f', 'failed', NULL, '{}', '["bad row"]', '[]', 0, now());
      INSERT INTO evidence (run_id, sample_id, position, source, kind, score, verdict, invalid, veto, reason, detail, elapsed_ms,
                            llm_calls, prompt_tokens, completion_tokens, llm_latency_ms, llm_retries, cache_hits)
        VALUES ('r', 'j', 1, 'genrm', 'judge', 0.5, 'pass', false, false, 'fine', 'null', 2, 1, 10, 5, 7, 0, 0),
               ('r', 'j', 0, 'math', 'verifier', NULL, 'error', true, true, NULL, '{"a": null}', 1, NULL, NULL, NULL, NULL, NULL, NULL);
      INSERT INTO failures (run_id, sample_id, position, reason) VALUES ('r', 'f', 0, 'bad row');
    `);
    await client.end();
    const store = await openPostgresStore(url);
    expect((await store.getResult('r', 'j'))?.evidence).toEqual([
      {
        source: 'math',
        kind: 'verifier',
        verdict: 'error',
        detail: { a: null },
        veto: true,
        invalid: true,
        elapsed_ms: 1,
      },
      {
        source: 'genrm',
        kind: 'judge',
        score: 0.5,
        verdict: 'pass',
        detail: null,
        veto: false,
        invalid: false,
        reason: 'fine',
        usage: {
          calls: 1,
          prompt_tokens: 10,
          completion_tokens: 5,
          latency_ms: 7,
          retries: 0,
          cache_hits: 0,
        },
        elapsed_ms: 2,
      },
    ]);
    expect(await store.listFailures('r')).toEqual([{ sample_id: 'f', reasons: ['bad row'] }]);
    expect((await store.sourceStats('r')).map((s) => [s.source, s.count, s.invalid])).toEqual([
      ['math', 0, 1],
      ['genrm', 1, 0],
    ]);
    await store.close();
  });

  test('should refuse a database written by a newer rewardkit', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    await (await openPostgresStore(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES (99, now())');
    await client.end();
    await expect(openPostgresStore(url)).rejects.toThrow(
      /has schema version 99, newer than this rewardkit understands \(7\)/,
    );
  });

  test('should keep one index per column list on results (version 5 drops the duplicate of (run_id, seq))', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    await (await openPostgresStore(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ name: string; columns: string }>(
      `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       WHERE x.indrelid = 'results'::regclass ORDER BY i.relname`,
    );
    await client.end();
    // The definition without the index's own name: two equal ones are the same B-tree twice.
    const shapes = rows.map((r) => r.columns.replace(/INDEX \S+ ON/, 'INDEX ON'));
    expect(new Set(shapes).size).toBe(shapes.length);
    expect(rows.map((r) => r.name)).toEqual([
      'results_failed',
      'results_pkey',
      'results_position',
      'results_request',
      'results_reward',
      'results_seq_key',
    ]);
  });

  test('should close a run whose process stopped renewing its lease as interrupted, with its counts', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    await expectAbandonedRunsClosed((leaseMs) => openPostgresStore(url, { leaseMs }));
  });

  test('should fail a wrong statement with RK_STORE, which retrying cannot fix', async () => {
    if (!server.available) return;
    const store = await openPostgresStore(await server.createDatabase());
    // A result for a run that does not exist breaks the foreign key: a bug, not an outage.
    const wrong = await store.saveResults('no-such-run', [okResult('x', 1)]).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'RK_STORE', isRetryable: false });
    await store.close();
  });

  test.skipIf(!server.available || !server.faults)(
    'should fail with RK_STORE_UNAVAILABLE while the server is down or hung, and work again after, without reopening',
    async () => {
      if (!server.available || !server.faults) return;
      const faults = server.faults;
      const store = await openPostgresStore(await server.createDatabase(), {
        statementTimeoutMs: 500,
        connectTimeoutMs: 1000,
      });
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [okResult('before', 1)]);
      await faults.shutDown();
      try {
        const down = await store.saveResults(run.id, [okResult('down', 1)]).catch((e: unknown) => e);
        expect(down).toMatchObject({ code: 'RK_STORE_UNAVAILABLE', isRetryable: true });
        await expect(store.ping()).rejects.toMatchObject({ code: 'RK_STORE_UNAVAILABLE' });
      } finally {
        await faults.startAgain();
      }
      await store.saveResults(run.id, [okResult('after-restart', 1)]);
      await store.ping();

      faults.freeze();
      try {
        // Nothing answers: the client-side timeout (statement timeout + 1 s) ends the wait.
        const hung = await store.saveResults(run.id, [okResult('hung', 1)]).catch((e: unknown) => e);
        expect(hung).toMatchObject({ code: 'RK_STORE_UNAVAILABLE' });
      } finally {
        faults.thaw();
      }
      await store.saveResults(run.id, [okResult('after-thaw', 1)]);
      // What failed was not saved, and nothing else was lost.
      expect([...(await store.completedIds(run.id))].sort()).toEqual([
        'after-restart',
        'after-thaw',
        'before',
      ]);
      await store.close();
    },
    60_000,
  );

  test('should name the store with its password masked when it cannot connect', async () => {
    if (!server.available) return;
    const url = new URL(await server.createDatabase());
    url.username = 'nobody_here';
    url.password = 's3cret-pw';
    const error = await openPostgresStore(url.toString(), { connectTimeoutMs: 5000 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`postgres://nobody_here:***@${url.host}${url.pathname}`);
    expect((error as Error).message).not.toContain('s3cret-pw');
    expect((error as Error).message).toMatch(/opening failed: .*nobody_here/);
  });
});

describe('openPostgresStore without a server', () => {
  test('should name the unreachable store with its password masked', async () => {
    const error = await openPostgresStore('postgres://rk:hunter2@127.0.0.1:1/rewards', {
      connectTimeoutMs: 2000,
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^Store postgres:\/\/rk:\*\*\*@127\.0\.0\.1:1\/rewards: opening failed: .*ECONNREFUSED/,
    );
    expect((error as Error).message).not.toContain('hunter2');
    expect(error).toMatchObject({ code: 'RK_STORE_UNAVAILABLE' });
  });
});
