import type { DatasetRecord, UnparsedRecord } from './dataset-record.js';
import type { JsonlLine } from './jsonl-lines.js';
import type { RowOrigin } from './sample-row.js';

/** Parses a record's JSON text (a record read already is returned as it is). */
export function parseRecord(record: UnparsedRecord): DatasetRecord {
  if (!('text' in record)) return record;
  try {
    return { origin: record.origin, value: JSON.parse(record.text) };
  } catch (error) {
    return { origin: record.origin, error: `invalid JSON: ${(error as Error).message}` };
  }
}

/**
 * Parses each line (a JSONL line or a JSON array element) on its own, so a bad one fails only its
 * row. JSONL rows are numbered by line; array elements by position (`unit: 'row'`), since several
 * may share a line and their places must stay distinct keys.
 */
export function jsonRecords(
  lines: AsyncIterable<JsonlLine>,
  where: Omit<RowOrigin, 'line'>,
): AsyncGenerator<DatasetRecord>;
/** With `parse: false`, each line's text is left for `parseRecord` (on a worker thread). */
export function jsonRecords(
  lines: AsyncIterable<JsonlLine>,
  where: Omit<RowOrigin, 'line'>,
  parse: boolean,
): AsyncGenerator<UnparsedRecord>;
export async function* jsonRecords(
  lines: AsyncIterable<JsonlLine>,
  where: Omit<RowOrigin, 'line'>,
  parse = true,
): AsyncGenerator<UnparsedRecord> {
  let position = 0;
  for await (const line of lines) {
    position++;
    const origin = { ...where, line: where.unit === 'row' ? position : line.line };
    if (line.text === undefined) {
      yield { origin, error: line.error };
      continue;
    }
    yield parse ? parseRecord({ origin, text: line.text }) : { origin, text: line.text };
  }
}
