import type { Readable } from 'node:stream';
import type { DatasetRecord, UnparsedRecord } from './dataset-record.js';
import { type DatasetShard, datasetShards } from './dataset-shards.js';
import { readJsonArrayLines } from './json-array-lines.js';
import { jsonRecords } from './json-records.js';
import { readJsonlLines } from './jsonl-lines.js';
import { parquetRowCount, readParquetRecords } from './parquet-records.js';

/** A dataset opened for reading: its rows, streamed, and how many there are when that is cheap to know. */
export interface OpenedDataset<R = DatasetRecord> {
  readonly records: AsyncIterable<R>;
  /** Lines or rows to expect (for a progress bar); undefined when it would cost a pass over the data. */
  readonly count: () => Promise<number | undefined>;
}

async function* shardRecords(
  shards: readonly DatasetShard[],
  name: string | undefined,
  parse: boolean,
): AsyncGenerator<UnparsedRecord> {
  for (const shard of shards) {
    // A single file is named as the caller names it; a folder's files by their own paths.
    const where =
      shard.shard === undefined ? { file: name ?? shard.path } : { file: shard.path, shard: shard.shard };
    if (shard.format === 'parquet') yield* readParquetRecords(shard.path, where);
    else if (shard.format === 'json')
      yield* jsonRecords(readJsonArrayLines(shard.path), { ...where, unit: 'row' }, parse);
    else yield* jsonRecords(readJsonlLines(shard.path), where, parse);
  }
}

/**
 * Opens what `--input` names: stdin (JSONL), a `.parquet`, `.json` (array) or JSONL file, or a
 * Hugging Face dataset folder (one split of it: see `datasetShards`). Rows stream in file order;
 * an unreadable row is a record with its error, never a stop.
 */
export function openDataset(
  input: string | Readable,
  options: { inputName?: string; split?: string } = {},
): OpenedDataset {
  return openRecords(input, options, true) as OpenedDataset;
}

/**
 * `openDataset` with JSON rows left as text, for a reader that parses them elsewhere: `score
 * --workers` parses each row on the worker thread that scores it.
 */
export function openUnparsedDataset(
  input: string | Readable,
  options: { inputName?: string; split?: string } = {},
): OpenedDataset<UnparsedRecord> {
  return openRecords(input, options, false);
}

function openRecords(
  input: string | Readable,
  options: { inputName?: string; split?: string },
  parse: boolean,
): OpenedDataset<UnparsedRecord> {
  if (typeof input !== 'string') {
    return {
      records: jsonRecords(readJsonlLines(input), { file: options.inputName ?? '<stdin>' }, parse),
      count: async () => undefined,
    };
  }
  const shards = datasetShards(input, options.split);
  return {
    records: shardRecords(shards, options.inputName, parse),
    count: async () => {
      if (!shards.every((s) => s.format === 'parquet')) return undefined;
      let total = 0;
      for (const shard of shards) total += await parquetRowCount(shard.path);
      return total;
    },
  };
}
