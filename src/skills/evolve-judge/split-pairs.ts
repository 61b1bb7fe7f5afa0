import { createRng, RewardKitError } from '../../core/index.js';
import { type LabelledPair, type ShownPair, showPair } from './labelled-pair.js';

/** Accuracy on fewer pairs than this says nothing, and a seed could not be told from another. */
export const MIN_PAIRS_PER_SPLIT = 2;

export type PairSplitName = 'held_in' | 'held_out';

/** The pairs the skill is evolved and selected on, and the pairs it is reported on. */
export interface PairSplit {
  readonly held_in: readonly ShownPair[];
  readonly held_out: readonly ShownPair[];
}

/**
 * Splits labelled pairs by seed: a seeded shuffle of the input order, the first
 * round(n × heldOut) pairs held out, each split kept in input order; every pair's positions are
 * drawn by `showPair` with the same seed. The same pairs and seed always give the same split, so a
 * before/after comparison and a resumed run see the same pairs. Fewer than 2 pairs in a split is a
 * usage error, as are duplicate ids (a judgment is resumed by id).
 */
export function splitPairs(
  pairs: readonly LabelledPair[],
  options: { heldOut: number; seed: number },
): PairSplit {
  const { heldOut, seed } = options;
  if (!(heldOut > 0 && heldOut < 1))
    throw new RewardKitError('RK_USAGE', `the held-out fraction must be in (0, 1), got ${heldOut}`);
  const seen = new Set<string>();
  for (const pair of pairs) {
    if (seen.has(pair.id)) throw new RewardKitError('RK_USAGE', `duplicate pair id "${pair.id}"`);
    seen.add(pair.id);
  }
  const outCount = Math.round(pairs.length * heldOut);
  const inCount = pairs.length - outCount;
  if (inCount < MIN_PAIRS_PER_SPLIT || outCount < MIN_PAIRS_PER_SPLIT)
    throw new RewardKitError(
      'RK_USAGE',
      `${pairs.length} labelled pairs split ${inCount} held-in / ${outCount} held-out (held-out fraction ${heldOut}); each split needs at least ${MIN_PAIRS_PER_SPLIT} pairs: add pairs or change --held-out`,
    );
  const order = createRng(seed).shuffle(pairs.map((_, i) => i));
  const out = new Set(order.slice(0, outCount));
  const shown = pairs.map((pair) => showPair(pair, seed));
  return {
    held_in: shown.filter((_, i) => !out.has(i)),
    held_out: shown.filter((_, i) => out.has(i)),
  };
}
