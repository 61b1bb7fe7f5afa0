import { writeFileSync } from 'node:fs';
import { parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';

/**
 * Writes 30 math rows (`id`, `response`, `reference`) in three row groups of 10, then overwrites the
 * header of the first page of `column` in row group `group` (0-based), as a torn write or a bad
 * disk would: the footer stays readable, the page does not.
 */
export function writeDamagedParquet(path: string, column: string, group: number): void {
  const ids = Array.from({ length: 30 }, (_, i) => i);
  const buffer = new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'id', data: ids.map((i) => `s${i}`), type: 'STRING' },
        { name: 'response', data: ids.map((i) => `#### ${i}`), type: 'STRING' },
        { name: 'reference', data: ids.map(String), type: 'STRING' },
      ],
      rowGroupSize: 10,
    }),
  );
  const chunk = parquetMetadata(buffer.buffer).row_groups[group]?.columns.find(
    (c) => c.meta_data?.path_in_schema[0] === column,
  );
  if (!chunk?.meta_data) throw new Error(`no column ${column} in row group ${group}`);
  const offset = Number(chunk.meta_data.dictionary_page_offset ?? chunk.meta_data.data_page_offset);
  buffer.fill(0xff, offset, offset + 8);
  writeFileSync(path, buffer);
}
