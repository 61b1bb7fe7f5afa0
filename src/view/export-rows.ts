import type { SampleRow, Store } from '../store/index.js';
import { csvCell } from './csv-cell.js';
import { type SampleFilters, sampleQueryOf } from './sample-query-of.js';

/** Rows read from the store per query while exporting (each after the last: see `streamSamples`). */
const PAGE_ROWS = 5000;

const CSV_COLUMNS = [
  'sample_id',
  'status',
  'reward',
  'data_source',
  'group',
  'total_ms',
  'errors',
  'warnings',
  'response_preview',
  'response_chars',
] as const;

/**
 * The rows the table shows for these filters, all of them, as JSONL or CSV text, a page of the
 * store at a time so a large run is never held in memory. CSV gives every source's component a
 * `component.<source>` column, in the order of `sources`.
 */
export async function* exportRows(
  store: Store,
  runId: string,
  filters: SampleFilters,
  format: 'jsonl' | 'csv',
  sources: readonly string[],
): AsyncGenerator<string> {
  const line = (row: SampleRow) =>
    format === 'jsonl'
      ? `${JSON.stringify(row)}\n`
      : `${[...CSV_COLUMNS.map((c) => csvCell(row[c])), ...sources.map((s) => csvCell(row.components[s]))].join(',')}\r\n`;
  if (format === 'csv') {
    yield `${[...CSV_COLUMNS, ...sources.map((s) => `component.${s}`)].map(csvCell).join(',')}\r\n`;
  }
  const {
    limit: _limit,
    offset: _offset,
    ...query
  } = sampleQueryOf(filters, { limit: PAGE_ROWS, offset: 0 });
  for await (const rows of store.streamSamples(runId, query, PAGE_ROWS)) yield rows.map(line).join('');
}
