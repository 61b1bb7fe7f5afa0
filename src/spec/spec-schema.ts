import { z } from 'zod';
import { CalibrationMapSchema } from '../calibration/index.js';

const identifier = z
  .string()
  .regex(/^[A-Za-z_][\w.-]*$/, 'expected a name of letters, digits, "_", "-" or "." starting with a letter');

/** One evidence source in a spec: which check to run, with which parameters, and how it counts. */
export const SourceConfigSchema = z.strictObject({
  /** Name of the component in results; defaults to the kind. Unique within a spec. */
  name: identifier.optional(),
  /** The source kind, e.g. `math`, `code`, `ifeval`, `reference`, `regex`, `json`, `tags`, `length`. */
  kind: z.string().min(1),
  /** Weight in the aggregation; 0 makes a source evidence-only (it can still veto). */
  weight: z.number().finite().nonnegative().default(1),
  /** A failing veto source sets the reward to `reward` (default: the spec's `veto_reward`). */
  veto: z.union([z.boolean(), z.strictObject({ reward: z.number().finite() })]).default(false),
  /** Wall-clock budget for this source on one sample. */
  timeout_ms: z.number().int().positive().default(60_000),
  /** Parameters of the kind; each kind validates its own. */
  params: z.record(z.string(), z.unknown()).default({}),
  /**
   * A calibration map (`rewardkit calibrate`) the source's score passes through before aggregation:
   * in a spec file, a path relative to the file; once parsed, the map itself, so a resolved spec
   * stays plain, storable data.
   */
  calibration: z.union([z.string().min(1), CalibrationMapSchema]).optional(),
});
export type SourceConfig = z.output<typeof SourceConfigSchema>;

/** What a reward becomes when a source could not be carried out. */
export const ErrorPolicySchema = z.union([
  z.literal('fail').describe('the row fails: reward null, the reason recorded'),
  z.literal('exclude').describe('aggregate over the sources that did run, with a warning'),
  z.strictObject({ value: z.number().finite() }).describe('use this score for the source, with a warning'),
]);
export type ErrorPolicy = z.output<typeof ErrorPolicySchema>;

/** A spec that scores every sample with the same sources. */
export const LeafSpecSchema = z.strictObject({
  version: z.literal(1).default(1),
  name: z.string().default('spec'),
  description: z.string().optional(),
  sources: z.array(SourceConfigSchema).min(1, 'expected at least one source'),
  aggregate: z.enum(['weighted_mean', 'weighted_sum', 'min', 'max']).default('weighted_mean'),
  /** [min, max] bounds applied to the aggregated reward. */
  clamp: z
    .tuple([z.number().finite(), z.number().finite()])
    .refine(([lo, hi]) => lo <= hi, 'expected [min, max] with min <= max')
    .optional(),
  veto_reward: z.number().finite().default(0),
  on_error: ErrorPolicySchema.default('fail'),
});
export type LeafSpec = z.output<typeof LeafSpecSchema>;

/** A spec reference inside a route: a preset name or an inline leaf spec. */
export const SpecRefSchema = z.union([z.string().min(1), LeafSpecSchema]);

/** A spec that routes each sample by its `data_source` to a leaf spec. */
export const RoutedSpecSchema = z.strictObject({
  version: z.literal(1).default(1),
  name: z.string().default('spec'),
  description: z.string().optional(),
  routes: z
    .array(
      z.strictObject({
        /** Exact names or globs with `*`, e.g. `gsm8k`, `math*`. */
        data_source: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
        spec: SpecRefSchema,
      }),
    )
    .min(1, 'expected at least one route'),
  /** Where samples go whose data_source matches no route (or that have none). */
  default: SpecRefSchema.optional(),
});
export type RoutedSpec = z.output<typeof RoutedSpecSchema>;

/** A reward spec document: either `sources` (leaf) or `routes` (routed). */
export type RewardSpecDocument = LeafSpec | RoutedSpec;

/** A spec after presets are resolved: routes hold inline leaf specs only. Plain JSON, storable. */
export interface ResolvedSpec {
  readonly name: string;
  readonly description?: string;
  readonly routes: readonly { readonly data_source: readonly string[]; readonly spec: LeafSpec }[];
  readonly default?: LeafSpec;
}
