import { z } from 'zod';
import { createRng } from '../../core/index.js';

/** A pair whose better response is known, as RewardBench publishes it: `chosen` is the better one. */
export const LabelledPairSchema = z.object({
  id: z.string().min(1),
  prompt: z.string(),
  chosen: z.string(),
  rejected: z.string(),
});
export type LabelledPair = z.output<typeof LabelledPairSchema>;

/**
 * A pair as the judge is given it: the responses in the positions the seed drew. `better` (the
 * label) stays beside the pair and is never part of what a model reads.
 */
export interface ShownPair {
  readonly id: string;
  readonly prompt: string;
  readonly first: string;
  readonly second: string;
  readonly better: 'first' | 'second';
}

/**
 * Puts the chosen response first or second at random, seeded by the run's seed and the pair's id
 * (FNV-1a, as the benchmarks place their pairs), so a position-biased judge gains nothing on
 * average and a pair sits in the same place whatever order pairs run in or whether a run resumed.
 */
export function showPair(pair: LabelledPair, seed: number): ShownPair {
  let hash = 0x811c9dc5;
  for (const ch of `${seed}\u0000${pair.id}`) {
    hash ^= ch.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const chosenFirst = createRng(hash).next() < 0.5;
  return chosenFirst
    ? { id: pair.id, prompt: pair.prompt, first: pair.chosen, second: pair.rejected, better: 'first' }
    : { id: pair.id, prompt: pair.prompt, first: pair.rejected, second: pair.chosen, better: 'second' };
}
