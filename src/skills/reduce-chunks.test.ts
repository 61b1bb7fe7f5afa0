import { describe, expect, test } from 'vitest';
import { reduceChunkSizes, reduceChunks } from './reduce-chunks.js';

describe('reduceChunkSizes', () => {
  test.each([
    // The worked vectors of methods/skills.md.
    [7, [7]],
    [8, [5, 3]],
    [11, [6, 5]],
    [12, [6, 6]],
    // Edges: nothing, less than a batch, exact batches, a kept remainder, a large count.
    [0, []],
    [1, [1]],
    [5, [5]],
    [6, [6]],
    [10, [5, 5]],
    [13, [5, 5, 3]],
    [25, [5, 5, 5, 5, 5]],
    [27, [6, 6, 5, 5, 5]],
  ])('should cut %i items into %j with batch size 5', (count, sizes) => {
    expect(reduceChunkSizes(count)).toEqual(sizes);
  });

  test('should spread the remainder over every earlier chunk when it has more items than chunks', () => {
    expect(reduceChunkSizes(9, 8)).toEqual([9]);
    expect(reduceChunkSizes(19, 6)).toEqual([7, 6, 6]);
  });

  test('should refuse counts and batch sizes that are not whole numbers', () => {
    expect(() => reduceChunkSizes(-1)).toThrow(RangeError);
    expect(() => reduceChunkSizes(3, 0)).toThrow(/batchSize/);
  });
});

describe('reduceChunks', () => {
  test('should keep the items in order in consecutive chunks', () => {
    const items = Array.from({ length: 11 }, (_, i) => i);
    expect(reduceChunks(items)).toEqual([
      [0, 1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10],
    ]);
  });
});
