import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { specHash } from './spec-hash.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { openSqliteStore } from './sqlite-store.js';
import {
  expectAbandonedRunsClosed,
  expectKeptSourceStatsRead,
  judgedResult as judged,
  okResult as ok,
  runStoreConformance,
} from './test-utils/store-conformance.js';

/** A database as a rewardkit of schema `version` left it, built from the released steps. */
function databaseAtVersion(path: string, version: number): Database.Database {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  for (const step of sqliteMigrations) {
    if (step.version > version) break;
    if ('sql' in step) db.exec(step.sql);
    else step.apply(db);
    db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, 't')").run(step.version);
  }
  return db;
}

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'rk-store-')), 'nested', 'store.sqlite');

describe('openSqliteStore', () => {
  runStoreConformance(async () => openSqliteStore(':memory:'));

  test('should keep data across reopening a file, creating its folder', async () => {
    const path = tempFile();
    const store = openSqliteStore(path);
    const run = await store.createRun({ spec_name: 's', spec: {} });
    await store.saveResults(run.id, [ok('a', 1)]);
    await store.close();
    const again = openSqliteStore(path);
    expect(await again.getResult(run.id, 'a')).toEqual(ok('a', 1));
    await again.close();
  });

  test("should read a finished run's kept statistics when opened again, read-only too", async () => {
    const path = tempFile();
    const store = openSqliteStore(path);
    await expectKeptSourceStatsRead(store, async () => openSqliteStore(path, { readonly: true }));
    await store.close();
  });

  test("should find a request's results through the request index, which holds only rows with a request", async () => {
    const path = tempFile();
    const store = openSqliteStore(path);
    const run = await store.createRun({ spec_name: 's', spec: {} });
    await store.saveResults(run.id, [ok('a', 1), ok('b', 0)], { requestId: ['r1', 'r2'] });
    await store.saveResults(run.id, [ok('c', 1)]);
    expect((await store.listResults(run.id, { requestId: 'r2' })).map((r) => r.id)).toEqual(['b']);
    await store.close();
    const db = new Database(path);
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT * FROM results WHERE run_id = ? AND request_id = ? ORDER BY rowid')
      .all('x', 'r2') as { detail: string }[];
    expect(plan.map((step) => step.detail).join('\n')).toContain('USING INDEX results_request');
    expect(
      db
        .prepare('SELECT COUNT(*) FROM results INDEXED BY results_request WHERE request_id IS NOT NULL')
        .pluck()
        .get(),
    ).toBe(2);
    db.close();
  });

  test('should upgrade a database from before the first migration', async () => {
    const path = tempFile();
    databaseAtVersion(path, 0).close();
    const store = openSqliteStore(path);
    const run = await store.createRun({ spec_name: 's', spec: {} });
    expect(await store.getRun(run.id)).toBeDefined();
    await store.close();
  });

  test('should upgrade a version-1 database with the response cache, usage columns, request ids and state', async () => {
    const path = tempFile();
    databaseAtVersion(path, 1).close();
    const store = openSqliteStore(path);
    await store.putCachedResponse('k', '{"content": "x"}', 1000, null);
    expect(await store.getCachedResponse('k', 2000)).toBe('{"content": "x"}');
    const run = await store.createRun({ spec_name: 's', spec: {} });
    await store.saveResults(run.id, [judged]);
    expect((await store.getResult(run.id, 'j'))?.evidence[0]?.usage).toEqual(judged.evidence[0]?.usage);
    await store.close();
  });

  test('should upgrade a version-10 database: its sample texts read on, without a reference, and new ones keep theirs', async () => {
    const path = tempFile();
    const raw = databaseAtVersion(path, 10);
    raw.exec(`
      INSERT INTO runs (id, created_at, spec_name, spec, spec_hash, status) VALUES ('r', 't', 's', '{}', 'h', 'finished');
      INSERT INTO results (run_id, sample_id, status, reward, components, errors, warnings, total_ms, created_at,
                           prompt, response)
      VALUES ('r', 'a', 'ok', 1, '{}', '[]', '[]', 1, 't', '"Q"', 'A');
    `);
    raw.close();
    const store = openSqliteStore(path);
    expect(await store.getSampleText('r', 'a')).toEqual({ prompt: 'Q', response: 'A' });
    await store.saveResults('r', [ok('b', 1)], { samples: [{ response: 'B', reference: 'ref' }] });
    expect(await store.getSampleText('r', 'b')).toEqual({ response: 'B', reference: 'ref' });
    await store.close();
  });

  test('should move version-4 evidence and failure rows into the results row exactly', async () => {
    const path = tempFile();
    const raw = databaseAtVersion(path, 4);
    raw.exec(`
      INSERT INTO runs (id, created_at, spec_name, spec, spec_hash, status) VALUES ('r', 't', 's', '{}', 'h', 'finished');
      INSERT INTO results (run_id, sample_id, status, reward, components, errors, warnings, total_ms, created_at)
        VALUES ('r', 'j', 'ok', 0.5, '{}', '[]', '[]', 3, 't'), ('r', 'f', 'failed', NULL, '{}', '["bad row"]', '[]', 0, 't');
      INSERT INTO evidence (run_id, sample_id, position, source, kind, score, verdict, invalid, veto, reason, detail, elapsed_ms,
                            llm_calls, prompt_tokens, completion_tokens, llm_latency_ms, llm_retries, cache_hits)
        VALUES ('r', 'j', 1, 'genrm', 'judge', 0.5, 'pass', 0, 0, 'fine', 'null', 2, 1, 10, 5, 7, 0, 0),
               ('r', 'j', 0, 'math', 'verifier', NULL, 'error', 1, 1, NULL, '{"a": null}', 1, NULL, NULL, NULL, NULL, NULL, NULL);
      INSERT INTO failures (run_id, sample_id, position, reason) VALUES ('r', 'f', 0, 'bad row');
    `);
    raw.close();
    const store = openSqliteStore(path);
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

  test('should wait for another process’s write lock without blocking the event loop', async () => {
    const path = tempFile();
    const store = openSqliteStore(path);
    const run = await store.createRun({ spec_name: 's', spec: {} });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    let saved = false;
    const saving = store.saveResults(run.id, [ok('a', 1)]).then(() => {
      saved = true;
    });
    // The event loop keeps turning while the save waits: timers fire, the save is still pending.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(saved).toBe(false);
    other.exec('COMMIT');
    other.close();
    await saving;
    expect((await store.getResult(run.id, 'a'))?.reward).toBe(1);
    await store.close();
  });

  test('should close a run whose process stopped renewing its lease as interrupted, with its counts', async () => {
    const path = tempFile();
    await expectAbandonedRunsClosed(async (leaseMs) => openSqliteStore(path, { leaseMs }));
  });

  test('should give a run running at the upgrade a fresh heartbeat, then close it when none follows', async () => {
    const path = tempFile();
    const old = databaseAtVersion(path, 8);
    old
      .prepare(
        `INSERT INTO runs (id, created_at, spec_name, spec, spec_hash, status)
         VALUES ('old', '2020-01-01T00:00:00.000Z', 'serve:math', '{}', 'h', 'running')`,
      )
      .run();
    old.close();
    const upgraded = openSqliteStore(path, { leaseMs: 60_000 });
    expect((await upgraded.getRun('old'))?.status).toBe('running');
    await upgraded.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = openSqliteStore(path, { leaseMs: 200 });
    expect(await later.getRun('old')).toMatchObject({ status: 'interrupted', summary: { rows: 0 } });
    await later.close();
  });

  test('should keep named state documents, replacing them on write', async () => {
    const path = tempFile();
    const store = openSqliteStore(path);
    expect(await store.getState('clipo-head/run-1')).toBeUndefined();
    await store.putState('clipo-head/run-1', { version: 1, step: 3, w: [0.5, -1] });
    await store.putState('clipo-head/run-1', { version: 1, step: 4, w: [0.25, -1] });
    await store.close();
    const reopened = openSqliteStore(path);
    expect(await reopened.getState('clipo-head/run-1')).toEqual({ version: 1, step: 4, w: [0.25, -1] });
    await reopened.close();
  });

  test('should refuse a database written by a newer rewardkit', () => {
    const path = tempFile();
    openSqliteStore(path).close();
    const raw = new Database(path);
    raw.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (99, ?)').run('x');
    raw.close();
    expect(() => openSqliteStore(path)).toThrow(/schema version 99, newer than this rewardkit understands/);
  });

  test('should open a current store read-only, refusing writes', async () => {
    const path = tempFile();
    const writer = openSqliteStore(path);
    const run = await writer.createRun({ spec_name: 's', spec: {} });
    await writer.saveResults(run.id, [ok('a', 1)]);
    const reader = openSqliteStore(path, { readonly: true });
    expect(await reader.runTotals(run.id)).toMatchObject({ results: 1, mean_reward: 1 });
    await expect(reader.createRun({ spec_name: 's', spec: {} })).rejects.toThrow(/readonly/);
    await reader.close();
    await writer.close();
  });

  test.each([
    ['missing', (_path: string) => {}, /Cannot open the store .*store\.sqlite/],
    [
      'older',
      (path: string) => databaseAtVersion(path, 6).close(),
      /schema version 6, older than this rewardkit's \(11\); upgrade it in place by opening it once for writing, e\.g\. rewardkit runs list --store/,
    ],
    [
      'corrupt',
      (path: string) => {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, 'not a database, just text '.repeat(200));
      },
      /is not a rewardkit store or is damaged \(file is not a database\)/,
    ],
  ])('should refuse to open a %s store read-only, saying what to do', (_name, make, message) => {
    const path = tempFile();
    make(path);
    expect(() => openSqliteStore(path, { readonly: true })).toThrow(message);
  });
});

describe('specHash', () => {
  test('should not depend on key order', () => {
    expect(specHash({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(specHash({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(specHash({ a: 1 })).not.toBe(specHash({ a: 2 }));
  });
});
