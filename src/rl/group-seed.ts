/**
 * A per-group seed from the caller's seed and the group id (FNV-1a over both), so every group of a
 * batch draws its own BRPO reference or CLIPO positives, and the same seed and group draw the
 * same again on a rerun.
 */
export function groupSeed(seed: number, group: string): number {
  let hash = 0x811c9dc5;
  for (const ch of `${seed}\u0000${group}`) {
    hash ^= ch.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
