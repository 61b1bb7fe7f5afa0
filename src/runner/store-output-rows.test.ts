import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { failedResult, type RewardResult } from '../core/index.js';
import { openSqliteStore } from '../store/index.js';
import { openParquetResultSink } from './parquet-result-sink.js';
import { storeOutputRows } from './store-output-rows.js';

const ok = (id: string, reward: number): RewardResult => ({
  spec: 'rk/v1',
  id,
  status: 'ok',
  reward,
  components: { math: reward },
  evidence: [
    {
      source: 'math',
      kind: 'math',
      score: reward,
      verdict: reward === 1 ? 'pass' : 'fail',
      detail: { extracted: '2' },
      veto: false,
      invalid: false,
      reason: 'compared',
      elapsed_ms: 0.5,
    },
  ] as RewardResult['evidence'],
  errors: [],
  warnings: [],
  data_source: 'gsm8k',
  timings: { total_ms: 1 },
});

const results = [ok('a', 1), ok('b', 0), failedResult('line:3', ['in.jsonl:3: invalid JSON']), ok('d', 0.5)];

async function storeWithRun(saved: readonly RewardResult[]) {
  const store = openSqliteStore(':memory:');
  const run = await store.createRun({ spec_name: 'math', spec: {} });
  await store.saveResults(run.id, saved);
  return { store, runId: run.id };
}

describe('storeOutputRows', () => {
  test('should store the JSONL results the store lacks, exactly as the output has them', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'rk-reconcile-')), 'out.jsonl');
    writeFileSync(output, results.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const { store, runId } = await storeWithRun([results[0] as RewardResult]);
    const warnings: string[] = [];
    const stored = await storeOutputRows({
      store,
      runId,
      output,
      done: new Set(results.map((r) => r.id)),
      warn: (message) => warnings.push(message),
    });
    expect(stored).toBe(3);
    expect(warnings).toEqual([
      expect.stringContaining(`stored 3 results of ${output} that run ${runId} lacked`),
    ]);
    expect(await store.listResults(runId)).toEqual(results);
    await store.close();
  });

  test('should store nothing and say nothing when the store holds every output row', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'rk-reconcile-')), 'out.jsonl');
    writeFileSync(output, results.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const { store, runId } = await storeWithRun(results);
    const warnings: string[] = [];
    const done = new Set(results.map((r) => r.id));
    expect(await storeOutputRows({ store, runId, output, done, warn: (m) => warnings.push(m) })).toBe(0);
    expect(warnings).toEqual([]);
    await store.close();
  });

  test('should name the file, line and field of an output line that is not a whole result, and store the rest', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'rk-reconcile-')), 'out.jsonl');
    const broken = { ...ok('b', 0), reward: 'high' };
    writeFileSync(output, [ok('a', 1), broken, ok('c', 1)].map((r) => `${JSON.stringify(r)}\n`).join(''));
    const { store, runId } = await storeWithRun([]);
    const warnings: string[] = [];
    const stored = await storeOutputRows({
      store,
      runId,
      output,
      done: new Set(['a', 'b', 'c']),
      warn: (message) => warnings.push(message),
    });
    expect(stored).toBe(2);
    expect(warnings[0]).toMatch(
      new RegExp(`^${output}:2: result "b" is not a whole result \\(reward: .*\\); it cannot be stored`),
    );
    expect([...(await store.completedIds(runId))].sort()).toEqual(['a', 'c']);
    await store.close();
  });

  test('should store the results of a Parquet output the store lacks', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'rk-reconcile-')), 'out.parquet');
    const sink = await openParquetResultSink(output, false);
    for (const result of results) await sink.write(result);
    await sink.close();
    const { store, runId } = await storeWithRun([results[1] as RewardResult]);
    const done = new Set(results.map((r) => r.id));
    expect(await storeOutputRows({ store, runId, output, done, warn: () => {} })).toBe(3);
    for (const result of results) expect(await store.getResult(runId, result.id)).toEqual(result);
    await store.close();
  });
});
