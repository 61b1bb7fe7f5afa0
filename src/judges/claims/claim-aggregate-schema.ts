import { z } from 'zod';

/** The MARCH Solver rewards, and the presets that score the same claim verdicts other ways. */
export const ClaimAggregateSchema = z.enum([
  'zero_tolerance',
  'proportional',
  'ragas',
  'factscore',
  'safe_f1',
  'refchecker_strict',
  'refchecker_soft',
  'refchecker_majority',
]);
export type ClaimAggregate = z.infer<typeof ClaimAggregateSchema>;
