import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { failedResult, type RewardResult } from '../core/index.js';
import { specHash } from './spec-hash.js';
import { openSqliteStore } from './sqlite-store.js';

const ok = (id: string, reward: number, score = reward): RewardResult => ({
  spec: 'rk/v1',
  id,
  status: 'ok',
  reward,
  components: { math: score, fmt: null },
  evidence: [
    {
      source: 'math',
      kind: 'math',
      score,
      verdict: score === 1 ? 'pass' : 'fail',
      detail: { extracted: '4' },
      veto: false,
      invalid: false,
      elapsed_ms: 0.5,
    },
    {
      source: 'fmt',
      kind: 'regex',
      verdict: 'error',
      veto: false,
      invalid: true,
      reason: 'bad',
      elapsed_ms: 0.1,
    },
  ],
  errors: [],
  warnings: ['w'],
  data_source: 'gsm8k',
  group: 'g1',
  timings: { total_ms: 1.25 },
});

const judged: RewardResult = {
  spec: 'rk/v1',
  id: 'j',
  status: 'ok',
  reward: 1,
  components: { judge: 1 },
  evidence: [
    {
      source: 'judge',
      kind: 'genrm',
      score: 1,
      verdict: 'pass',
      veto: false,
      invalid: false,
      usage: {
        calls: 2,
        prompt_tokens: 300,
        completion_tokens: 40,
        latency_ms: 412.5,
        retries: 1,
        cache_hits: 1,
      },
      elapsed_ms: 420,
    },
  ],
  errors: [],
  warnings: [],
  timings: { total_ms: 421 },
};

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'rk-store-')), 'nested', 'store.sqlite');

describe('openSqliteStore', () => {
  test('should round-trip results with their evidence exactly', async () => {
    const store = openSqliteStore(':memory:');
    const run = await store.createRun({
      spec_name: 'math',
      spec: { a: 1 },
      input: 'in.jsonl',
      output: 'out.jsonl',
    });
    expect(run).toMatchObject({
      status: 'running',
      spec_hash: specHash({ a: 1 }),
      input: 'in.jsonl',
      finished_at: null,
    });
    expect(run.id).toMatch(/^run-\d{8}-\d{6}-[0-9a-f]{4}$/);
    const failed = failedResult('line:3', ['in.jsonl:3: invalid JSON', 'second reason']);
    await store.saveResults(run.id, [ok('a', 1), ok('b', 0), failed]);
    expect(await store.getResult(run.id, 'a')).toEqual(ok('a', 1));
    expect(await store.getResult(run.id, 'line:3')).toEqual(failed);
    expect(await store.getResult(run.id, 'zzz')).toBeUndefined();
    expect((await store.listResults(run.id)).map((r) => r.id)).toEqual(['a', 'b', 'line:3']);
    expect((await store.listResults(run.id, { status: 'failed' })).map((r) => r.id)).toEqual(['line:3']);
    expect((await store.listResults(run.id, { limit: 1, offset: 1 })).map((r) => r.id)).toEqual(['b']);
    expect(await store.completedIds(run.id)).toEqual(new Set(['a', 'b', 'line:3']));
    expect(await store.listFailures(run.id)).toEqual([
      { sample_id: 'line:3', reasons: ['in.jsonl:3: invalid JSON', 'second reason'] },
    ]);
    expect(await store.sourceStats(run.id)).toEqual([
      { source: 'math', count: 2, mean: 0.5, invalid: 0 },
      { source: 'fmt', count: 0, mean: null, invalid: 2 },
    ]);
    await store.close();
  });

  test('should replace a row saved again, with its evidence and failures', async () => {
    const store = openSqliteStore(':memory:');
    const run = await store.createRun({ spec_name: 's', spec: {} });
    await store.saveResults(run.id, [failedResult('a', ['boom'])]);
    await store.saveResults(run.id, [ok('a', 1)]);
    expect(await store.getResult(run.id, 'a')).toEqual(ok('a', 1));
    expect(await store.listFailures(run.id)).toEqual([]);
    await store.close();
  });

  test('should finish runs, list them newest first and find one to resume', async () => {
    const store = openSqliteStore(':memory:');
    const first = await store.createRun({
      id: 'run-1',
      spec_name: 's',
      spec: { k: 1 },
      input: 'i',
      output: 'o',
    });
    const second = await store.createRun({
      id: 'run-2',
      spec_name: 's',
      spec: { k: 2 },
      input: 'i',
      output: 'o',
    });
    await store.finishRun(first.id, { rows: 3 }, 'interrupted');
    expect(await store.getRun('run-1')).toMatchObject({ status: 'interrupted', summary: { rows: 3 } });
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['run-2', 'run-1']);
    const resumed = await store.findResumableRun({ spec_hash: specHash({ k: 1 }), input: 'i', output: 'o' });
    expect(resumed).toMatchObject({ id: 'run-1', status: 'running', finished_at: null });
    expect(await store.findResumableRun({ spec_hash: specHash({ k: 1 }), output: 'other' })).toBeUndefined();
    expect(second.id).toBe('run-2');
    await store.close();
  });

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

  test('should keep LLM usage with each judgment and total it per source', async () => {
    const store = openSqliteStore(':memory:');
    const run = await store.createRun({ spec_name: 's', spec: {} });
    await store.saveResults(run.id, [judged, { ...judged, id: 'k' }]);
    expect((await store.getResult(run.id, 'j'))?.evidence[0]?.usage).toEqual(judged.evidence[0]?.usage);
    expect(await store.sourceStats(run.id)).toEqual([
      {
        source: 'judge',
        count: 2,
        mean: 1,
        invalid: 0,
        usage: { calls: 4, prompt_tokens: 600, completion_tokens: 80, cache_hits: 2 },
      },
    ]);
    await store.close();
  });

  test('should keep the request id of server results and filter by it', async () => {
    const store = openSqliteStore(':memory:');
    const run = await store.createRun({ spec_name: 'serve', spec: {} });
    await store.saveResults(run.id, [ok('a', 1)], { requestId: 'req-1' });
    await store.saveResults(run.id, [ok('b', 0), ok('c', 1)], { requestId: 'req-2' });
    await store.saveResults(run.id, [ok('d', 1)]);
    expect((await store.listResults(run.id, { requestId: 'req-2' })).map((r) => r.id)).toEqual(['b', 'c']);
    expect((await store.listResults(run.id)).map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
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

  test('should keep cached responses until they expire', async () => {
    const store = openSqliteStore(':memory:');
    await store.putCachedResponse('a', 'first', 1000, 5000);
    expect(await store.getCachedResponse('a', 4999)).toBe('first');
    expect(await store.getCachedResponse('a', 5000)).toBeUndefined();
    await store.putCachedResponse('a', 'second', 6000, null);
    expect(await store.getCachedResponse('a', 10 ** 12)).toBe('second');
    expect(await store.getCachedResponse('missing', 0)).toBeUndefined();
    await store.close();
  });

  test('should refuse a database written by a newer rewardkit', () => {
    const path = tempFile();
    openSqliteStore(path).close();
    const raw = new Database(path);
    raw.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (99, ?)').run('x');
    raw.close();
    expect(() => openSqliteStore(path)).toThrow(/schema version 99, newer than this rewardkit understands/);
  });

  test('should save many results in batches', async () => {
    const store = openSqliteStore(':memory:');
    const run = await store.createRun({ spec_name: 's', spec: {} });
    for (let b = 0; b < 40; b++) {
      await store.saveResults(
        run.id,
        Array.from({ length: 250 }, (_, i) => ok(`r${b * 250 + i}`, i % 2)),
      );
    }
    expect((await store.completedIds(run.id)).size).toBe(10_000);
    expect((await store.sourceStats(run.id))[0]).toMatchObject({ count: 10_000, mean: 0.5 });
    await store.close();
  });
});

describe('specHash', () => {
  test('should not depend on key order', () => {
    expect(specHash({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(specHash({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(specHash({ a: 1 })).not.toBe(specHash({ a: 2 }));
  });
});
