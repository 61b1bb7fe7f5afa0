import { escapeHtml } from './escape-html.js';
import { htmlTable, type TableCell } from './html-table.js';

type Scalar = string | number | boolean | null | undefined;

const isScalar = (v: unknown): v is Scalar => v === null || v === undefined || typeof v !== 'object';
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** A scalar, or a list of scalars (shown joined). */
const isFlat = (v: unknown) => isScalar(v) || (Array.isArray(v) && v.every(isScalar));
const isFlatRecord = (v: unknown): v is Record<string, unknown> =>
  isRecord(v) && Object.values(v).every(isFlat);

function cell(value: unknown): TableCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (Array.isArray(value))
    return value.length === 0 ? '(none)' : value.map((v) => String(v ?? '—')).join(', ');
  return String(value);
}

/** One value as a table: key/value rows, a matrix of records, rows of a list; else its JSON. */
function valueHtml(value: unknown): string {
  if (isFlatRecord(value))
    return htmlTable(
      [],
      Object.entries(value).map(([k, v]) => [k, cell(v)]),
    );
  // A record of records (null where a row has nothing, e.g. a domain not run): one row each.
  if (isRecord(value) && Object.values(value).every((row) => row === null || isFlatRecord(row))) {
    const columns = [...new Set(Object.values(value).flatMap((row) => Object.keys(row ?? {})))];
    return htmlTable(
      ['', ...columns],
      Object.entries(value).map(([k, row]) => [
        k,
        ...columns.map((c) => cell((row as Record<string, unknown> | null)?.[c])),
      ]),
    );
  }
  if (Array.isArray(value) && value.length > 0 && value.every(isFlatRecord)) {
    const columns = [...new Set(value.flatMap((row) => Object.keys(row)))];
    return htmlTable(
      columns,
      value.map((row) => columns.map((c) => cell(row[c]))),
    );
  }
  return `<pre>${escapeHtml(JSON.stringify(value, null, 2) ?? 'null')}</pre>`;
}

/**
 * A report's free-form `detail` object as HTML, whatever it holds: its flat entries in one table,
 * each nested one under its name, as a table where its shape allows, else as JSON. All escaped.
 */
export function detailHtml(detail: Record<string, unknown>): string {
  const entries = Object.entries(detail);
  const flat = entries.filter(([, v]) => isFlat(v));
  const nested = entries.filter(([, v]) => !isFlat(v));
  return [
    ...(flat.length > 0
      ? [
          htmlTable(
            [],
            flat.map(([k, v]) => [k, cell(v)]),
          ),
        ]
      : []),
    ...nested.map(([k, v]) => `<h3>${escapeHtml(k)}</h3>\n${valueHtml(v)}`),
  ].join('\n');
}
