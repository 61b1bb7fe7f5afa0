import type { DatasetRecord } from './dataset-record.js';
import { applyFieldMappings, type FieldMapping } from './field-mapping.js';
import { lineKey, type RowOrigin, rowId, rowPlace } from './sample-row.js';

/** A dataset row made ready for a command's schema, or the reasons it cannot be, with the key it is recorded under. */
export type InputRow =
  | { readonly ok: true; readonly origin: RowOrigin; readonly value: unknown }
  | {
      readonly ok: false;
      readonly origin: RowOrigin;
      readonly id: string;
      /** Each reason with the row's place first (`file:row 3: field ...`). */
      readonly errors: string[];
      /** The same reasons without the place, for callers that print it themselves. */
      readonly reasons: string[];
    };

export interface InputRowOptions {
  readonly mappings?: readonly FieldMapping[];
  /** Give a row with no `id` (or `key`) the stable key of its place (`line:7`, `row:7`), which resume finds again. */
  readonly autoId?: boolean;
}

/**
 * One dataset record as the rows a command reads: unreadable records fail with their place, the
 * field mappings are applied (a `[*]` expands the row into `id#0`, `id#1`, … grouped under the
 * row's id), and rows without an id get their place's key. Parquet nulls are absent fields.
 */
export function inputRows(record: DatasetRecord, options: InputRowOptions = {}): InputRow[] {
  const { origin } = record;
  if (record.error !== undefined) {
    return [failedRow(origin, lineKey(origin), [record.error])];
  }
  const value = origin.unit === 'row' ? withoutNulls(record.value) : record.value;
  const mappings = options.mappings ?? [];
  if (mappings.length === 0 && !options.autoId) return [{ ok: true, origin, value }];
  const mapped = applyFieldMappings(value, mappings);
  if (!mapped.ok) {
    return [failedRow(origin, mappedId(value, mappings) ?? rowId(value) ?? lineKey(origin), mapped.errors)];
  }
  return mapped.rows.map(({ fields, element }) => {
    const own = rowId(fields);
    if (options.autoId || element !== undefined) {
      const base = own ?? lineKey(origin);
      if (element !== undefined) {
        fields.id = `${base}#${element}`;
        fields.group ??= base;
      } else if (own === undefined && (fields.id === undefined || fields.id === null)) {
        // Only a row with no id gets its place's key: an id of the wrong type (`true`, `""`, `{}`)
        // fails on the id field, instead of the row being scored under a key its owner never gave.
        fields.id = base;
      }
    }
    return { ok: true, origin, value: fields };
  });
}

/** The id the `id` mapping gives a row that failed on another field, so it is recorded under the id it would have had. */
function mappedId(value: unknown, mappings: readonly FieldMapping[]): string | undefined {
  const idMappings = mappings.filter((m) => m.target.length === 1 && m.target[0] === 'id');
  if (idMappings.length === 0) return undefined;
  const mapped = applyFieldMappings(value, idMappings);
  return mapped.ok ? rowId(mapped.rows[0]?.fields) : undefined;
}

function failedRow(origin: RowOrigin, id: string, reasons: string[]): InputRow {
  return { ok: false, origin, id, errors: reasons.map((r) => `${rowPlace(origin)}: ${r}`), reasons };
}

function withoutNulls(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}
