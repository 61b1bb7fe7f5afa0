import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, test } from 'vitest';
import type { DatasetRecord } from './dataset-record.js';
import { parquetRowCount, plainValue, readParquetRecords } from './parquet-records.js';
import { writeDamagedParquet } from './test-utils/damaged-parquet.js';
import { writeVerlParquet } from './test-utils/verl-parquet.js';

const dir = () => mkdtempSync(join(tmpdir(), 'rk-parquet-'));
const all = async (records: AsyncIterable<DatasetRecord>) => {
  const out: DatasetRecord[] = [];
  for await (const r of records) out.push(r);
  return out;
};

describe('readParquetRecords', () => {
  test('should round-trip nested columns (list of structs, structs, INT64 in a struct, list of strings) across row groups', async () => {
    const path = join(dir(), 'train.parquet');
    const rows = [0, 1, 2, 3, 4].map((i) => ({
      data_source: 'openai/gsm8k',
      prompt: [
        { role: 'system', content: 'Think step by step.' },
        { role: 'user', content: `What is ${i}+${i}?` },
      ],
      reward_model: { style: 'rule', ground_truth: String(2 * i) },
      extra_info: { split: 'train', index: BigInt(i) },
      responses: [`#### ${2 * i}`, 'no idea'],
    }));
    writeVerlParquet(path, rows, 2);
    const records = await all(readParquetRecords(path));
    expect(records.map((r) => r.origin)).toEqual(
      [1, 2, 3, 4, 5].map((line) => ({ file: path, line, unit: 'row' })),
    );
    expect(records.map((r) => r.value)).toEqual(
      rows.map((r) => ({ ...r, extra_info: { split: 'train', index: Number(r.extra_info.index) } })),
    );
    expect(await parquetRowCount(path)).toBe(5);
  });

  test('should refuse a file that is not Parquet, naming it, rather than reading it as text', async () => {
    const path = join(dir(), 'rows.parquet');
    writeFileSync(path, '{"id": "a", "response": "x"}\n');
    await expect(all(readParquetRecords(path))).rejects.toThrow(/rows\.parquet: not a readable Parquet file/);
  });

  test("should read a flat file with rewardkit's own columns, nulls included", async () => {
    const path = join(dir(), 'samples.parquet');
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: ['a', 'b'], type: 'STRING' },
        { name: 'response', data: ['#### 2', '#### 5'], type: 'STRING' },
        { name: 'reference', data: ['2', null], type: 'STRING' },
      ],
    });
    writeFileSync(path, new Uint8Array(buffer));
    expect((await all(readParquetRecords(path))).map((r) => r.value)).toEqual([
      { id: 'a', response: '#### 2', reference: '2' },
      { id: 'b', response: '#### 5', reference: null },
    ]);
  });
});

describe('plainValue', () => {
  test.each([
    [5n, 5],
    [2n ** 60n, '1152921504606846976'],
    [{ a: [1n, { b: -3n }] }, { a: [1, { b: -3 }] }],
    ['x', 'x'],
  ])('should turn %s into %s', (input, output) => {
    expect(plainValue(input)).toEqual(output);
  });
});

describe('readParquetRecords on a damaged file', () => {
  test('should name the file, the row group and the column of a corrupt page, after the rows before it', async () => {
    const path = join(dir(), 'damaged.parquet');
    writeDamagedParquet(path, 'response', 1);
    const seen: DatasetRecord[] = [];
    const read = (async () => {
      for await (const record of readParquetRecords(path)) seen.push(record);
    })();
    await expect(read).rejects.toThrow(
      `${path}: row group 2 of 3 (rows 11–20), column "response": cannot be decoded, the file is damaged (`,
    );
    await expect(read).rejects.toMatchObject({ code: 'RK_INPUT_PARSE' });
    expect(seen).toHaveLength(10);
  });
});
