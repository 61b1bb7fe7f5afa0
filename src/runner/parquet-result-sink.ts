import { existsSync, renameSync } from 'node:fs';
import type { SchemaElement } from 'hyparquet';
import { type RewardResult, RewardResultSchema } from '../core/index.js';
import { readParquetRecords } from '../dataset/index.js';
import type { ResultSink } from './result-sink.js';

const string = (name: string, repetition: 'REQUIRED' | 'OPTIONAL' = 'OPTIONAL'): SchemaElement => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: repetition,
});
const stringList = (name: string): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  string('element'),
];

/**
 * RewardResult as Parquet columns a trainer's pipeline reads without rewardkit: `reward` a double
 * (null when failed), `components` a map from source to score, `errors` and `warnings` string
 * lists, `timings` a struct; `evidence`, whose `detail` differs by source, is a JSON column.
 */
export const REWARD_RESULT_PARQUET_SCHEMA: SchemaElement[] = [
  { name: 'root', num_children: 12 },
  string('spec', 'REQUIRED'),
  string('id', 'REQUIRED'),
  string('status', 'REQUIRED'),
  { name: 'reward', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  { name: 'components', repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1 },
  { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
  string('key', 'REQUIRED'),
  { name: 'value', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  { name: 'evidence', type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' },
  ...stringList('errors'),
  ...stringList('warnings'),
  string('data_source'),
  string('group'),
  { name: 'routed_default', type: 'BOOLEAN', repetition_type: 'OPTIONAL' },
  { name: 'timings', repetition_type: 'OPTIONAL', num_children: 1 },
  { name: 'total_ms', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
];

/** The top-level columns, in schema order: one per RewardResult field. */
const COLUMNS = [
  'spec',
  'id',
  'status',
  'reward',
  'components',
  'evidence',
  'errors',
  'warnings',
  'data_source',
  'group',
  'routed_default',
  'timings',
] as const;

/** The RewardResult fields a result may leave out: their columns hold null for it. */
const OPTIONAL_FIELDS = Object.entries(RewardResultSchema.shape)
  .filter(([, field]) => field.safeParse(undefined).success)
  .map(([name]) => name);

/**
 * A row read back from a results Parquet file as the result it was written from: every row has
 * every column, so an optional field the result left out (written as null) is absent again.
 */
export function resultFieldsOfParquetRow(row: unknown): unknown {
  if (typeof row !== 'object' || row === null) return row;
  const fields = { ...(row as Record<string, unknown>) };
  for (const name of OPTIONAL_FIELDS) if (fields[name] === null) delete fields[name];
  return fields;
}

/** Rows per row group: large enough for Parquet's compression, small enough to hold in memory. */
const ROW_GROUP = 4096;

/**
 * Results as a Parquet file. Parquet cannot be appended to, so the file is written beside the
 * output (`<output>.partial`) and moved into place when the run closes — also after Ctrl-C. A
 * resumed run copies the existing file's rows (one row group at a time) into the new one first and
 * skips their ids. A run killed outright loses only its own rows: the previous file stays whole.
 */
export async function openParquetResultSink(output: string, resume: boolean): Promise<ResultSink> {
  const partial = `${output}.partial`;
  // Loaded on first use: a JSONL run does not pay for the Parquet writer at start-up.
  const { fileWriter, ParquetWriter } = await import('hyparquet-writer');
  const writer = new ParquetWriter({
    writer: fileWriter(partial),
    schema: REWARD_RESULT_PARQUET_SCHEMA,
    createdBy: 'rewardkit',
  });
  let buffer: Record<string, unknown>[] = [];
  const flush = () => {
    if (buffer.length === 0) return;
    const rows = buffer;
    buffer = [];
    writer.write({
      columnData: COLUMNS.map((name) => ({ name, data: rows.map((row) => row[name] ?? null) })),
      rowGroupSize: rows.length,
    });
  };
  const add = (row: Record<string, unknown>) => {
    buffer.push(row);
    if (buffer.length >= ROW_GROUP) flush();
  };
  const done = new Set<string>();
  if (resume && existsSync(output)) {
    for await (const record of readParquetRecords(output)) {
      const row = record.value as Record<string, unknown>;
      if (typeof row.id === 'string') done.add(row.id);
      add(row);
    }
  }
  return {
    done,
    warnings: [],
    write: async (result: RewardResult) => add(result),
    close: async () => {
      flush();
      writer.finish();
      renameSync(partial, output);
    },
  };
}
