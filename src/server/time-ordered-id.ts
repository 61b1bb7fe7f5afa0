import { randomFillSync } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter for ids made in
 * the same millisecond, then 62 random bits. The store indexes results by request id and by
 * `<request id>-<index>`; random (v4) ids put every request's rows at a random place in both
 * B-trees, time-ordered ids append them, which halves the cost of an insert (BENCHMARKS.md).
 * Ids made by one process sort in the order they were made.
 */
export function createTimeOrderedIds(now: () => number = Date.now): () => string {
  let lastMs = -1;
  let counter = 0;
  // Random bytes for 512 ids at a time: one randomFillSync call per id was 1.6% of a fast route.
  const pool = Buffer.alloc(8 * 512);
  let used = pool.length;
  return () => {
    let ms = now();
    if (ms > lastMs) {
      lastMs = ms;
      counter = 0;
    } else {
      // Same millisecond, or the clock stepped back: count on from the last id.
      ms = lastMs;
      counter++;
      if (counter > 0xfff) {
        lastMs = ms = lastMs + 1;
        counter = 0;
      }
    }
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    const random = pool.subarray(used, used + 8);
    used += 8;
    const time = ms.toString(16).padStart(12, '0');
    const randA = (0x7000 | counter).toString(16);
    const randB = random.toString('hex');
    const variant = ((random[0] as number) & 0x3f) | 0x80;
    return `${time.slice(0, 8)}-${time.slice(8)}-${randA}-${variant.toString(16)}${randB.slice(2, 4)}-${randB.slice(4, 16)}`;
  };
}
