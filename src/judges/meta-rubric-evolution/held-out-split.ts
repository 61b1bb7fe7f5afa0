import { createRng } from '../../core/index.js';

/**
 * A seeded split of `ids` into the pairs evolution learns from and the held-out pairs it never
 * sees: the same ids, fraction and seed give the same split. Both parts keep at least one pair
 * when there are two or more; `heldOut` is empty only for a fraction of 0.
 */
export function heldOutSplit(
  ids: readonly string[],
  fraction: number,
  seed: number,
): { train: string[]; heldOut: string[] } {
  if (!(fraction >= 0 && fraction < 1)) throw new RangeError(`fraction must be in [0, 1), got ${fraction}`);
  const shuffled = createRng(seed).shuffle([...ids].sort());
  const wanted = fraction === 0 ? 0 : Math.max(1, Math.round(fraction * ids.length));
  const n = Math.min(wanted, Math.max(0, ids.length - 1));
  const held = new Set(shuffled.slice(0, n));
  return { train: ids.filter((id) => !held.has(id)), heldOut: ids.filter((id) => held.has(id)) };
}
