import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { failedResult, type RewardResult } from '../core/index.js';
import { readParquetRecords } from '../dataset/index.js';
import { openParquetResultSink } from './parquet-result-sink.js';

const ok = (id: string, reward: number): RewardResult => ({
  spec: 'rk/v1',
  id,
  status: 'ok',
  reward,
  components: { math: reward, format: null },
  evidence: [
    {
      source: 'math',
      kind: 'math',
      score: reward,
      verdict: reward === 1 ? 'pass' : 'fail',
      detail: { extracted: '2', rule: 'boxed' },
      veto: false,
      invalid: false,
      reason: 'compared',
      elapsed_ms: 0.5,
    },
  ] as RewardResult['evidence'],
  errors: [],
  warnings: ['clamped'],
  data_source: 'openai/gsm8k',
  group: 'q1',
  timings: { total_ms: 1.25 },
});

const readBack = async (path: string) => {
  const rows: unknown[] = [];
  for await (const r of readParquetRecords(path)) rows.push(r.value);
  return rows;
};

describe('openParquetResultSink', () => {
  test('should round-trip results with their nested fields, and a failed one with nulls', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rk-out-')), 'out.parquet');
    const sink = await openParquetResultSink(path, true);
    const results = [
      { ...ok('a', 1), routed_default: true as const },
      failedResult('row:2', ['in.parquet:row 2: field "response": missing']),
      ok('c', 0),
    ];
    for (const r of results) await sink.write(r);
    expect(existsSync(path)).toBe(false);
    await sink.close();
    expect(existsSync(`${path}.partial`)).toBe(false);
    expect(await readBack(path)).toEqual([
      results[0],
      { ...results[1], data_source: null, group: null, routed_default: null },
      { ...results[2], routed_default: null },
    ]);
  });

  test('should resume: keep the rows already written, skip their ids, and add the new ones', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rk-out-')), 'out.parquet');
    const first = await openParquetResultSink(path, true);
    await first.write(ok('a', 1));
    await first.close();
    const second = await openParquetResultSink(path, true);
    expect([...second.done]).toEqual(['a']);
    await second.write(ok('b', 0));
    await second.close();
    expect(((await readBack(path)) as RewardResult[]).map((r) => [r.id, r.reward])).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
    const fresh = await openParquetResultSink(path, false);
    expect(fresh.done.size).toBe(0);
    await fresh.close();
    expect(await readBack(path)).toEqual([]);
  });
});
