import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { failedResult, type RewardResult } from '../core/index.js';
import { readOutputResults } from './output-results.js';
import { openParquetResultSink } from './parquet-result-sink.js';

const scored = (id: string, extra: Partial<RewardResult> = {}): RewardResult => ({
  spec: 'rk/v1',
  id,
  status: 'ok',
  reward: 1,
  components: { reference: 1 },
  evidence: [],
  errors: [],
  warnings: [],
  timings: { total_ms: 1 },
  ...extra,
});

// A Parquet row has every column, so a field one result set and another left out comes back as
// null for the second: each such column must read as "absent", or the row fails the result schema.
test('should read back Parquet results whose optional columns other rows set', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'rk-output-results-')), 'out.parquet');
  const results = [
    scored('plain'),
    scored('routed', { data_source: 'unknown_set', routed_default: true }),
    scored('grouped', { group: 'g1', data_source: 'gsm8k' }),
    failedResult('line:4', ['in.jsonl:4: invalid JSON']),
  ];
  const sink = await openParquetResultSink(output, false);
  for (const result of results) await sink.write(result);
  await sink.close();
  const read: RewardResult[] = [];
  for await (const item of readOutputResults(output, new Set(results.map((r) => r.id)))) {
    expect(item.problem).toBeUndefined();
    if (item.result) read.push(item.result);
  }
  expect(read).toEqual(results);
});
