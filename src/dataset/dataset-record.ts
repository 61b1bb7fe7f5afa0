import type { RowOrigin } from './sample-row.js';

/**
 * One row of a dataset as read, before any schema: its value (a parsed JSON value or a Parquet
 * row as a plain object), or why it could not be read (the message without the place, which the
 * origin gives).
 */
export type DatasetRecord =
  | { readonly origin: RowOrigin; readonly value: unknown; readonly error?: undefined }
  | { readonly origin: RowOrigin; readonly value?: undefined; readonly error: string };

/** A record as read, or a JSON row whose text is not parsed yet (see `parseRecord`). */
export type UnparsedRecord = DatasetRecord | { readonly origin: RowOrigin; readonly text: string };
