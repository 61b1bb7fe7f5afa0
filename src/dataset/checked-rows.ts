import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { DatasetRecord } from './dataset-record.js';
import { openDataset } from './dataset-records.js';
import type { FieldMapping } from './field-mapping.js';
import { inputRows } from './input-row.js';
import { checkRow, firstSeenAt, lineKey, type RowOrigin, rowPlace } from './sample-row.js';

/** One input row as a run sees it, in input order. */
export type CheckedRow<T> =
  /** Its id is already in the output (resume). */
  | { readonly kind: 'done'; readonly id: string }
  /** Recorded as failed under `id`: a schema problem, a missing mapped field, or a repeated id. */
  | { readonly kind: 'failed'; readonly id: string; readonly errors: string[] }
  | { readonly kind: 'ok'; readonly id: string; readonly value: T; readonly origin: RowOrigin }
  /** The signal fired: rows after this point were not read. Always the last one yielded. */
  | { readonly kind: 'interrupted' };

export interface CheckedRowsOptions<S extends z.ZodType> {
  readonly inputName?: string;
  readonly split?: string;
  readonly mappings?: readonly FieldMapping[];
  /** Key rows without an `id` (or `key`) by their place. */
  readonly autoId: boolean;
  readonly schema: S;
  readonly idOf: (row: z.output<S>) => string;
  /** Ids already in the output. */
  readonly done: ReadonlySet<string>;
  readonly signal?: AbortSignal;
}

/** A row of one record, mapped, checked and keyed, before resume and repeated ids are looked at. */
export type RecordRow<T> =
  | { readonly kind: 'failed'; readonly id: string; readonly errors: string[]; readonly origin: RowOrigin }
  | { readonly kind: 'ok'; readonly id: string; readonly value: T; readonly origin: RowOrigin };

/** The rows of one record: mapped, checked against `schema` and keyed (pure, so a worker thread can run it). */
export function checkRecord<S extends z.ZodType>(
  record: DatasetRecord,
  options: Pick<CheckedRowsOptions<S>, 'mappings' | 'autoId' | 'schema' | 'idOf'>,
): RecordRow<z.output<S>>[] {
  return inputRows(record, {
    autoId: options.autoId,
    ...(options.mappings !== undefined && { mappings: options.mappings }),
  }).map((row): RecordRow<z.output<S>> => {
    const { origin } = row;
    const checked = row.ok ? checkRow(row.value, origin, options.schema) : row;
    return checked.ok
      ? { kind: 'ok', id: options.idOf(checked.value), value: checked.value, origin }
      : { kind: 'failed', id: checked.id, errors: checked.errors, origin };
  });
}

/**
 * Remembers where each id was first seen: a repeated one gets the failed row it is recorded as,
 * under the key of its own place (never a second result under the same id).
 */
export function createRepeatedIdCheck() {
  const seen = new Map<string, RowOrigin>();
  return (id: string, origin: RowOrigin): { kind: 'failed'; id: string; errors: string[] } | undefined => {
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, origin);
      return undefined;
    }
    return {
      kind: 'failed',
      id: lineKey(origin),
      errors: [
        `${rowPlace(origin)}: field "id": duplicate id "${id}" (first seen ${firstSeenAt(first)}); ids must be unique for results and resume to be meaningful`,
      ],
    };
  };
}

/**
 * The rows of a dataset, each mapped, checked against `schema` and keyed: what `score`, `verify`
 * and `judge` all read. A repeated id is a failed row under the key of its place, never a second
 * result under the same id.
 */
export async function* checkedRows<S extends z.ZodType>(
  input: string | Readable,
  options: CheckedRowsOptions<S>,
): AsyncGenerator<CheckedRow<z.output<S>>> {
  const repeated = createRepeatedIdCheck();
  const dataset = openDataset(input, {
    ...(options.inputName !== undefined && { inputName: options.inputName }),
    ...(options.split !== undefined && { split: options.split }),
  });
  for await (const record of dataset.records) {
    if (options.signal?.aborted) {
      yield { kind: 'interrupted' };
      return;
    }
    for (const row of checkRecord(record, options)) {
      if (options.done.has(row.id)) {
        yield { kind: 'done', id: row.id };
        continue;
      }
      const repeat = repeated(row.id, row.origin);
      if (repeat) {
        yield repeat;
        continue;
      }
      yield row.kind === 'ok'
        ? { kind: 'ok', id: row.id, value: row.value, origin: row.origin }
        : { kind: 'failed', id: row.id, errors: row.errors };
    }
  }
}
