/**
 * The group sizes of one level of Trace2Skill's hierarchical REDUCE: chunks of `batchSize` in
 * order; a last chunk smaller than half a batch would make a merge with too little to compare, so
 * its items are spread one each over the chunks before it. With 5: 7 → [7], 8 → [5, 3],
 * 11 → [6, 5], 12 → [6, 6]. A single short chunk (fewer items than a batch) stays as it is.
 */
export function reduceChunkSizes(count: number, batchSize = 5): number[] {
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`count must be a whole number ≥ 0, got ${count}`);
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError(`batchSize must be a whole number ≥ 1, got ${batchSize}`);
  const sizes = Array.from({ length: Math.floor(count / batchSize) }, () => batchSize);
  const rest = count % batchSize;
  if (rest === 0) return sizes;
  if (sizes.length === 0 || rest * 2 >= batchSize) return [...sizes, rest];
  for (let i = 0; i < rest; i++) sizes[i % sizes.length] = (sizes[i % sizes.length] as number) + 1;
  return sizes;
}

/** `items` cut into the consecutive chunks of `reduceChunkSizes`, order kept. */
export function reduceChunks<T>(items: readonly T[], batchSize = 5): T[][] {
  let start = 0;
  return reduceChunkSizes(items.length, batchSize).map((size) => {
    const chunk = items.slice(start, start + size);
    start += size;
    return chunk;
  });
}
