import { z } from 'zod';
import type { PairOutcome } from './pair-outcome.js';

/** A variant's fitness on a set of pairs; `fitness` is undefined when no pair was readable. */
export const FitnessSchema = z.object({
  fitness: z.number().optional(),
  /** Swap-consistent accuracy over the readable pairs. */
  accuracy: z.number().optional(),
  tieRate: z.number().optional(),
  right: z.number().int(),
  wrong: z.number().int(),
  ties: z.number().int(),
  /** Pairs with no readable verdict: out of every rate, never right or wrong. */
  failed: z.number().int(),
  /** The optional rubric-quality term, when a hook supplied one (already weighted). */
  quality: z.number().optional(),
});
export type Fitness = z.infer<typeof FitnessSchema>;

/** A pair's share of the fitness: 1 right, −λ tie, 0 wrong; undefined for a failed pair. */
export function pairFitness(outcome: PairOutcome['outcome'], tiePenalty: number): number | undefined {
  if (outcome === 'failed') return undefined;
  return outcome === 'right' ? 1 : outcome === 'tie' ? -tiePenalty : 0;
}

/**
 * Fitness = swap-consistent accuracy − λ · tie rate, both over the readable pairs (the mean of
 * `pairFitness`), plus the weighted rubric-quality term when given.
 */
export function evolutionFitness(
  outcomes: readonly PairOutcome[],
  tiePenalty: number,
  quality?: number,
): Fitness {
  const count = (o: PairOutcome['outcome']) => outcomes.filter((p) => p.outcome === o).length;
  const [right, wrong, ties, failed] = [count('right'), count('wrong'), count('tie'), count('failed')];
  const readable = right + wrong + ties;
  const base = { right, wrong, ties, failed, ...(quality !== undefined && { quality }) };
  if (readable === 0) return base;
  const accuracy = right / readable;
  const tieRate = ties / readable;
  return { ...base, accuracy, tieRate, fitness: accuracy - tiePenalty * tieRate + (quality ?? 0) };
}
