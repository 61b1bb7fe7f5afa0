import { issuesOf, issuesText, type RewardResult, RewardResultSchema } from '../core/index.js';
import { readJsonlLines, readParquetRecords } from '../dataset/index.js';
import { resultFieldsOfParquetRow } from './parquet-result-sink.js';
import { isParquetPath } from './result-sink.js';

/** A result read back from an output file, or why the line holding one could not be read. */
export type OutputResult =
  | { readonly result: RewardResult; readonly problem?: undefined }
  | { readonly problem: string; readonly result?: undefined };

/**
 * The results of an output file (JSONL, or Parquet for a `.parquet` path) whose id is in `ids`,
 * in file order, each checked against the RewardResult schema: what resume stores when the store
 * lacks rows the output holds. A line that names a wanted id but is not a whole result comes back
 * as a problem naming the file, line and field.
 */
export async function* readOutputResults(
  output: string,
  ids: ReadonlySet<string>,
): AsyncGenerator<OutputResult> {
  for await (const { place, value } of outputValues(output)) {
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !ids.has(id)) continue;
    const parsed = RewardResultSchema.safeParse(value);
    yield parsed.success
      ? { result: parsed.data }
      : { problem: `${place}: result "${id}" is not a whole result (${issuesText(issuesOf(parsed.error))})` };
  }
}

async function* outputValues(output: string): AsyncGenerator<{ place: string; value: unknown }> {
  if (isParquetPath(output)) {
    for await (const record of readParquetRecords(output)) {
      yield { place: `${output}:row ${record.origin.line}`, value: resultFieldsOfParquetRow(record.value) };
    }
    return;
  }
  for await (const line of readJsonlLines(output)) {
    if (line.text === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      // Not JSON: resume read no id from it either, so its row is scored again.
      continue;
    }
    yield { place: `${output}:${line.line}`, value };
  }
}
