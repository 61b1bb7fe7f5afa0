import { describe, expect, test } from 'vitest';
import { afterCondition, orderParts, type PartReader, pageByOffset, pagesByKey } from './sample-order.js';

/** Two parts of rows (numbered by position), read from memory as the stores read them from SQL. */
const reader = (parts: number[][]): PartReader<number> & { counted: number[] } => {
  const counted: number[] = [];
  return {
    counted,
    async read(part, page) {
      const rows = parts[part] ?? [];
      const from = page.cursor ? rows.indexOf(page.cursor.position) + 1 : page.offset;
      return rows.slice(from, from + page.limit).map((row) => ({ row, key: null, position: row }));
    },
    async count(part) {
      counted.push(part);
      return parts[part]?.length ?? 0;
    },
  };
};

describe('sample order', () => {
  test('should sort by reward in two index-ordered parts, the unrewarded rows last either way', () => {
    expect(orderParts({ sort: 'reward', order: 'desc' }, 'rowid')).toEqual([
      { where: 'reward IS NOT NULL', orderBy: 'reward DESC, rowid', key: 'reward', descending: true },
      { where: 'reward IS NULL', orderBy: 'rowid', key: null, descending: false },
    ]);
    expect(orderParts({}, 'seq')).toEqual([
      { where: null, orderBy: 'seq ASC', key: null, descending: false },
    ]);
  });

  test('should read after a cursor as a range an index can take, ties in position order', () => {
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    const [rewarded] = orderParts({ sort: 'reward', order: 'desc' }, 'seq');
    if (!rewarded) throw new Error('no part');
    expect(afterCondition(rewarded, { key: 0.5, position: 7 }, 'seq', param)).toBe(
      'reward <= $1 AND (reward < $1 OR seq > $2)',
    );
    const [position] = orderParts({ order: 'desc' }, 'seq');
    if (!position) throw new Error('no part');
    expect(afterCondition(position, { key: null, position: 9 }, 'seq', param)).toBe('seq < $3');
    expect(values).toEqual([0.5, 7, 9]);
  });

  test('should page by offset across the parts, counting a part only when a page starts past it', async () => {
    const parts = [
      [1, 2, 3, 4, 5],
      [6, 7, 8],
    ];
    const read = reader(parts);
    expect(await pageByOffset(2, read, { limit: 2, offset: 0 })).toEqual([1, 2]);
    expect(await pageByOffset(2, read, { limit: 3, offset: 3 })).toEqual([4, 5, 6]);
    expect(read.counted).toEqual([]);
    expect(await pageByOffset(2, read, { limit: 2, offset: 6 })).toEqual([7, 8]);
    expect(await pageByOffset(2, read, { limit: 2, offset: 9 })).toEqual([]);
    expect(read.counted).toEqual([0, 0]);
  });

  test('should stream every row once, each page after the last', async () => {
    const pages: number[][] = [];
    for await (const rows of pagesByKey(2, reader([[1, 2, 3, 4], [5]]), 2)) pages.push(rows);
    expect(pages).toEqual([[1, 2], [3, 4], [5]]);
  });
});
