import { z } from 'zod';
import type { MathOptions } from '../../verify/math/index.js';

/**
 * The math verifier's options as a spec (and `verify math`) names them, with their defaults. Each
 * default is the strict reading; the docs give the reason for each and the graders that differ.
 */
export const MathParamsSchema = z.strictObject({
  /** Budget for one comparison; running out is "undecided", recorded with the reason. */
  timeout_ms: z.number().int().positive().default(2000),
  /** Unset: integers exact, decimals as written, computed values within float error. */
  relative_tolerance: z.number().positive().optional(),
  /** Significant digits from which a written decimal also equals the value it rounds. */
  precision: z.number().int().positive().max(17).default(6),
  /** Compare 50% with both 50 and 0.5. */
  percent_aware: z.boolean().default(true),
  /** Whether the names answers are labelled with must agree (`x = 3` vs `y = 3`). */
  variables: z.enum(['lenient', 'strict']).default('lenient'),
  /** Inequalities as the sets they describe, or as statements. */
  relations: z.enum(['set', 'relation']).default('set'),
  /** Several distinct boxed answers: wrong for a one-part reference, read together, or only the last. */
  multiple_answers: z.enum(['reject', 'all', 'last']).default('reject'),
  /** Fall back to the last number outside math when nothing better is found. */
  last_number_fallback: z.boolean().default(true),
  /** The reward of an undecided comparison, or `error` to leave it to the spec's on_error policy. */
  on_undecided: z
    .union([z.literal('error'), z.strictObject({ value: z.number().finite() })])
    .default({ value: 0 }),
});
export type MathParams = z.output<typeof MathParamsSchema>;

/** The library options of a params object. */
export function mathOptionsOf(params: MathParams): MathOptions {
  return {
    timeoutMs: params.timeout_ms,
    ...(params.relative_tolerance !== undefined && { relativeTolerance: params.relative_tolerance }),
    precision: params.precision,
    percentAware: params.percent_aware,
    variables: params.variables,
    relations: params.relations,
    multipleAnswers: params.multiple_answers,
    lastNumberFallback: params.last_number_fallback,
  };
}
