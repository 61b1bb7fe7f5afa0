import type { SampleQuery } from './run-views.js';

/**
 * How a page of sample rows is read in its sort order from an index rather than by sorting the
 * run: each order is one or two parts read in turn, each part an index-ordered read. Sorting by
 * reward puts the rows without one (failures) last in either direction; no index orders
 * `reward IS NULL, reward DESC, position`, so the rewarded rows are read first, walking
 * (run_id, reward) forwards or backwards (sorting only rows of equal reward by position), then the
 * unrewarded ones in position order.
 */
export interface OrderPart {
  /** This part's own condition, beside the filter (null: none). */
  readonly where: string | null;
  readonly orderBy: string;
  /** The column the part is sorted by before the position (null: the position alone). */
  readonly key: string | null;
  readonly descending: boolean;
}

/** Where a keyset page of a part starts: after the row at `position` whose sort key is `key`. */
export interface SampleCursor {
  readonly key: unknown;
  readonly position: number;
}

/** `position`: the column of the save order (SQLite's rowid, PostgreSQL's seq). */
export function orderParts(query: Pick<SampleQuery, 'sort' | 'order'>, position: string): OrderPart[] {
  const descending = query.order === 'desc';
  const direction = descending ? 'DESC' : 'ASC';
  switch (query.sort ?? 'position') {
    case 'position':
      return [{ where: null, orderBy: `${position} ${direction}`, key: null, descending }];
    case 'reward':
      return [
        {
          where: 'reward IS NOT NULL',
          orderBy: `reward ${direction}, ${position}`,
          key: 'reward',
          descending,
        },
        { where: 'reward IS NULL', orderBy: position, key: null, descending: false },
      ];
    case 'sample_id':
      return [{ where: null, orderBy: `sample_id ${direction}, ${position}`, key: 'sample_id', descending }];
    case 'total_ms':
      return [{ where: null, orderBy: `total_ms ${direction}, ${position}`, key: 'total_ms', descending }];
  }
}

/**
 * The rows of `part` after `cursor`, as a condition an index can take as a range: the key bounded
 * on one side (ties included), and among equal keys the later positions (positions are unique).
 */
export function afterCondition(
  part: OrderPart,
  cursor: SampleCursor,
  position: string,
  param: (value: unknown) => string,
): string {
  if (part.key === null) return `${position} ${part.descending ? '<' : '>'} ${param(cursor.position)}`;
  const key = param(cursor.key);
  const [bound, strict] = part.descending ? ['<=', '<'] : ['>=', '>'];
  return `${part.key} ${bound} ${key} AND (${part.key} ${strict} ${key} OR ${position} > ${param(cursor.position)})`;
}

/** One read of a part: its rows with their sort key and position, for the next cursor. */
export interface KeyedRow<Row> {
  readonly row: Row;
  readonly key: unknown;
  readonly position: number;
}

export interface PartReader<Row> {
  /** Up to `limit` rows of part `part` matching the filter, after `cursor` or skipping `offset`. */
  read(
    part: number,
    page: { cursor?: SampleCursor; limit: number; offset: number },
  ): Promise<KeyedRow<Row>[]>;
  /** How many rows of part `part` match the filter. */
  count(part: number): Promise<number>;
}

/**
 * One page by offset across the parts: the next part is read only when the page runs past the end
 * of one, and counted only when the page starts beyond it.
 */
export async function pageByOffset<Row>(
  parts: number,
  reader: PartReader<Row>,
  page: { limit: number; offset: number },
): Promise<Row[]> {
  const rows: Row[] = [];
  let offset = page.offset;
  for (let part = 0; part < parts && rows.length < page.limit; part++) {
    const read = await reader.read(part, { limit: page.limit - rows.length, offset });
    rows.push(...read.map((r) => r.row));
    if (part + 1 < parts && rows.length < page.limit)
      offset = read.length > 0 ? 0 : Math.max(0, offset - (await reader.count(part)));
  }
  return rows;
}

/**
 * Every row in order, `pageRows` at a time, each page read after the last row of the one before
 * (never by offset, which would read the rows before it again): linear in the rows read.
 */
export async function* pagesByKey<Row>(
  parts: number,
  reader: Pick<PartReader<Row>, 'read'>,
  pageRows: number,
): AsyncGenerator<Row[]> {
  let cursor: SampleCursor | undefined;
  for (let part = 0; part < parts; part++) {
    for (;;) {
      const read = await reader.read(part, { ...(cursor && { cursor }), limit: pageRows, offset: 0 });
      if (read.length > 0) yield read.map((r) => r.row);
      const last = read.at(-1);
      if (read.length < pageRows || !last) break;
      cursor = { key: last.key, position: last.position };
    }
    cursor = undefined;
  }
}
