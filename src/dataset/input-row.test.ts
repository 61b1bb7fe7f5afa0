import { describe, expect, test } from 'vitest';
import { parseFieldMapping } from './field-mapping.js';
import { formatPresetMappings } from './format-presets.js';
import { inputRows } from './input-row.js';

const parquetRow = (line: number, value: unknown) => ({
  origin: { file: 'gen.parquet', line, unit: 'row' as const },
  value,
});

describe('inputRows', () => {
  test('should key a row without an id by its place, and keep its own id otherwise', () => {
    expect(
      inputRows({ origin: { file: 'd.jsonl', line: 4 }, value: { response: 'x' } }, { autoId: true }),
    ).toEqual([{ ok: true, origin: { file: 'd.jsonl', line: 4 }, value: { response: 'x', id: 'line:4' } }]);
    expect(inputRows(parquetRow(2, { key: 9, response: 'x' }), { autoId: true })[0]).toMatchObject({
      value: { key: 9, response: 'x' },
    });
    const sharded = {
      file: '/ds/data/train-0.parquet',
      shard: 'data/train-0.parquet',
      line: 3,
      unit: 'row' as const,
    };
    expect(inputRows({ origin: sharded, value: {} }, { autoId: true })[0]).toMatchObject({
      value: { id: 'data/train-0.parquet:row:3' },
    });
  });

  test.each([true, '', {}, [1]])(
    'should leave an id of the wrong type (%j) for the schema to refuse, not re-key the row by its place',
    (id) => {
      expect(
        inputRows({ origin: { file: 'd.jsonl', line: 4 }, value: { id, response: 'x' } }, { autoId: true }),
      ).toEqual([{ ok: true, origin: { file: 'd.jsonl', line: 4 }, value: { id, response: 'x' } }]);
    },
  );

  test('should key a row whose id is null by its place, as a Parquet null is no id', () => {
    expect(
      inputRows(
        { origin: { file: 'd.jsonl', line: 4 }, value: { id: null, response: 'x' } },
        { autoId: true },
      ),
    ).toMatchObject([{ ok: true, value: { id: 'line:4' } }]);
  });

  test('should drop Parquet nulls as absent fields', () => {
    expect(inputRows(parquetRow(1, { id: 'a', reference: null }))[0]).toMatchObject({ value: { id: 'a' } });
  });

  test('should fail a row missing a mapped field with file:row: field, keyed by its id when it has one', () => {
    const mappings = [parseFieldMapping('reference=reward_model.ground_truth')];
    expect(
      inputRows(parquetRow(5, { id: 'q5', reward_model: { style: 'rule' } }), { mappings, autoId: true }),
    ).toEqual([
      {
        ok: false,
        origin: { file: 'gen.parquet', line: 5, unit: 'row' },
        id: 'q5',
        errors: [
          'gen.parquet:row 5: field "reward_model.ground_truth": missing (--map reference=reward_model.ground_truth)',
        ],
        reasons: ['field "reward_model.ground_truth": missing (--map reference=reward_model.ground_truth)'],
      },
    ]);
  });

  test('should expand verl responses into id#k rows grouped by the prompt, keeping the prompt as messages', () => {
    const prompt = [{ role: 'user', content: '1+1?' }];
    const rows = inputRows(
      parquetRow(1, { prompt, reward_model: { ground_truth: '2' }, responses: ['#### 2', '#### 3'] }),
      { mappings: formatPresetMappings('verl'), autoId: true },
    );
    expect(rows.map((r) => r.ok && r.value)).toEqual([
      expect.objectContaining({ id: 'row:1#0', group: 'row:1', prompt, response: '#### 2', reference: '2' }),
      expect.objectContaining({ id: 'row:1#1', group: 'row:1', prompt, response: '#### 3', reference: '2' }),
    ]);
  });

  test('should pass an unreadable record on as failed at its place', () => {
    expect(inputRows({ origin: { file: 'd.jsonl', line: 2 }, error: 'invalid JSON: x' })).toMatchObject([
      { ok: false, id: 'line:2', errors: ['d.jsonl:2: invalid JSON: x'] },
    ]);
  });
});
