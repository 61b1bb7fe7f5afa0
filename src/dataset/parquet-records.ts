import type { FileMetaData } from 'hyparquet';
import { RewardKitError } from '../core/index.js';
import type { DatasetRecord } from './dataset-record.js';
import type { RowOrigin } from './sample-row.js';

/** The file's footer, or an error naming the file: a `.parquet` path is never read as text. */
async function openParquet(path: string) {
  // Loaded on first use: commands that read JSONL do not pay for the Parquet reader at start-up.
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } = await import(
    'hyparquet'
  );
  // hyparquet reads snappy itself; ZSTD (polars' default), GZIP, BROTLI and LZ4 need these.
  const { compressors } = await import('hyparquet-compressors');
  const file = await asyncBufferFromFile(path);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (error) {
    throw new RewardKitError(
      'RK_INPUT_PARSE',
      `${path}: not a readable Parquet file: ${(error as Error).message}`,
    );
  }
  const columns = parquetSchema(metadata).children.map((child) => child.element.name);
  return { file, metadata, compressors, columns, parquetReadObjects };
}

/** Rows in a Parquet file, from its footer alone (for a progress bar's total). */
export async function parquetRowCount(path: string): Promise<number> {
  return Number((await openParquet(path)).metadata.num_rows);
}

/**
 * Streams a Parquet file one row group at a time, so memory follows the largest row group, not the
 * file. Nested columns (structs, lists, maps) arrive as plain objects and arrays; see `plainValue`
 * for INT64.
 */
export async function* readParquetRecords(
  path: string,
  where: Omit<RowOrigin, 'line' | 'unit'> = { file: path },
): AsyncGenerator<DatasetRecord> {
  const { file, metadata, compressors, columns, parquetReadObjects } = await openParquet(path);
  // Only INT64 columns yield bigints; without one the rows need no second pass.
  const hasInt64 = metadata.schema.some((element) => element.type === 'INT64');
  const read = (rowStart: number, rowEnd: number, only?: string[]) =>
    parquetReadObjects({ file, metadata, compressors, rowStart, rowEnd, ...(only && { columns: only }) });
  let start = 0;
  for (const [g, group] of metadata.row_groups.entries()) {
    const end = start + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await read(start, end);
    } catch (error) {
      // A damaged page surfaces as the decoder's own words (`thrift unhandled type: 15`); read the
      // group's columns one by one to say which column holds it.
      let column: string | undefined;
      for (const name of columns) {
        if (
          await read(start, end, [name]).then(
            () => false,
            () => true,
          )
        ) {
          column = name;
          break;
        }
      }
      const groupText = `row group ${g + 1} of ${metadata.row_groups.length} (rows ${start + 1}–${end})`;
      throw new RewardKitError(
        'RK_INPUT_PARSE',
        `${path}: ${groupText}${column === undefined ? '' : `, column "${column}"`}: cannot be decoded, the file is damaged (${(error as Error).message})`,
        { cause: error },
      );
    }
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      yield {
        origin: { ...where, line: start + i + 1, unit: 'row' },
        value: hasInt64 ? plainValue(row) : row,
      };
    }
    start = end;
  }
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A Parquet value as JSON would carry it: INT64 (bigint) becomes a number when it is a safe
 * integer and its decimal text otherwise, so ids and counts pass the same schemas as JSONL rows
 * and results stay serializable. Arrays and plain objects are converted in place: the reader made
 * them for this row alone.
 */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = plainValue(value[i]);
    return value;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>;
    for (const key in record) record[key] = plainValue(record[key]);
    return record;
  }
  return value;
}
