import { z } from 'zod';
import { FitnessSchema } from './evolution-fitness.js';
import { PairOutcomeSchema } from './pair-outcome.js';

/** One meta-rubric variant: where it came from, its markdown, and how it did on the training pairs. */
export const VariantSchema = z.object({
  id: z.string(),
  generation: z.number().int().nonnegative(),
  /** The variant it was mutated from; null for the seed. */
  parent: z.string().nullable(),
  /** The `##` section the mutation rewrote; null for the seed. */
  section: z.string().nullable(),
  markdown: z.string(),
  /** The mutator's stated reason for the rewrite. */
  rationale: z.string().optional(),
  /** Why the mutation produced no variant (unreadable mutator, a rewrite that broke the schema). */
  failure: z.string().optional(),
  fitness: FitnessSchema.optional(),
  outcomes: z.array(PairOutcomeSchema),
  /** Whether it beat its parent and joined the population. */
  kept: z.boolean(),
});
export type Variant = z.infer<typeof VariantSchema>;

/** One generation as stored: the variants it made and the population after selection (ids, best first). */
export const GenerationSchema = z.object({
  version: z.literal(1),
  generation: z.number().int().nonnegative(),
  variants: z.array(VariantSchema),
  population: z.array(z.string()).min(1),
});
export type Generation = z.infer<typeof GenerationSchema>;

/** Where generations live; `load` returns every stored one in order, `save` adds the next. */
export interface GenerationStore {
  load(): Promise<Generation[]>;
  save(generation: Generation): Promise<void>;
}
