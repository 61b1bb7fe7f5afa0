import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { specHash } from './spec-hash.js';
import { openSqliteStore } from './sqlite-store.js';
import {
  judgedResult as judged,
  okResult as ok,
  runStoreConformance,
} from './test-utils/store-conformance.js';

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

  test('should upgrade a database from before the first migration', async () => {
    const path = tempFile();
    openSqliteStore(path).close();
    const raw = new Database(path);
    raw.exec(
      'DROP TABLE state; DROP TABLE llm_cache; DROP TABLE failures; DROP TABLE evidence; DROP TABLE results; DROP TABLE runs; DELETE FROM schema_migrations;',
    );
    raw.close();
    const store = openSqliteStore(path);
    const run = await store.createRun({ spec_name: 's', spec: {} });
    expect(await store.getRun(run.id)).toBeDefined();
    await store.close();
  });

  test('should upgrade a version-1 database with the response cache, usage columns, request ids and state', async () => {
    const path = tempFile();
    openSqliteStore(path).close();
    const raw = new Database(path);
    raw.exec(
      `DROP TABLE state; DROP INDEX results_request; ALTER TABLE results DROP COLUMN request_id;
       DROP TABLE llm_cache; DELETE FROM schema_migrations WHERE version > 1;
       ${['llm_calls', 'prompt_tokens', 'completion_tokens', 'llm_latency_ms', 'llm_retries', 'cache_hits'].map((c) => `ALTER TABLE evidence DROP COLUMN ${c};`).join(' ')}`,
    );
    raw.close();
    const store = openSqliteStore(path);
    await store.putCachedResponse('k', '{"content": "x"}', 1000, null);
    expect(await store.getCachedResponse('k', 2000)).toBe('{"content": "x"}');
    const run = await store.createRun({ spec_name: 's', spec: {} });
    await store.saveResults(run.id, [judged]);
    expect((await store.getResult(run.id, 'j'))?.evidence[0]?.usage).toEqual(judged.evidence[0]?.usage);
    await store.close();
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
});

describe('specHash', () => {
  test('should not depend on key order', () => {
    expect(specHash({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(specHash({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(specHash({ a: 1 })).not.toBe(specHash({ a: 2 }));
  });
});
