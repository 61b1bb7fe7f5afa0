import { z } from 'zod';
import { RewardKitError } from '../core/index.js';
import { DimsSchema, GroupIdSchema, GrpoOptionFields } from './group-row-schemas.js';
import { defineGroupMethod } from './group-shaping.js';
import { grpoAdvantages } from './grpo-advantages.js';
import { applyReferenceNormalization, ReferenceStatsSchema } from './reference-frozen-normalization.js';
import { loadRfnReference } from './rfn-reference-document.js';
import { scoredRollouts, spreadToGroup } from './scored-rollouts.js';
import { weightedReward } from './weighted-reward.js';

/** A row of multi-objective rewards: `dims[i]` is rollout i's vector, null when it failed. */
export const DimsGroupRowSchema = z.object({ group: GroupIdSchema, dims: DimsSchema });

const RfnOptionsSchema = z.strictObject({
  /** Weight of each dimension in the combined reward; default equal weights 1/K. */
  weights: z.array(z.number().finite()).min(1).optional(),
  /** Statistics given inline instead of the run's fitted document. */
  reference: ReferenceStatsSchema.optional(),
  ...GrpoOptionFields,
});

/**
 * Reference-Frozen Normalization: each dimension normalized with the frozen reference
 * statistics, combined with fixed weights, then GRPO over the combined reward.
 */
export const rfnGroupMethod = defineGroupMethod({
  name: 'rfn',
  description: 'per-dimension normalization by frozen reference statistics, weighted sum, then GRPO',
  inputSchema: DimsGroupRowSchema,
  optionsSchema: RfnOptionsSchema,
  shape: async (input, options, context) => {
    const stats = await loadRfnReference(options.reference, context, 'rfn');
    const scored = scoredRollouts(input.dims);
    const size = input.dims.length;
    const width = stats.mu.length;
    const weights = options.weights ?? new Array<number>(width).fill(1 / width);
    if (weights.length !== width) {
      throw new RewardKitError(
        'RK_USAGE',
        `option "weights" has ${weights.length} entries for ${width} reward dimensions`,
      );
    }
    const normalized = scored.values.map((dims) => applyReferenceNormalization(stats, dims));
    const combined = normalized.map((r) => weightedReward(weights, r));
    const advantages =
      combined.length === 0 ? [] : grpoAdvantages(combined, { std: options.std, eps: options.eps });
    return {
      group: input.group,
      method: 'rfn',
      advantages: spreadToGroup(scored, size, advantages, 0),
      failed: scored.failed,
      weights,
      shaped_rewards: spreadToGroup<number | null>(scored, size, combined, null),
      detail: { normalized: spreadToGroup<number[] | null>(scored, size, normalized, null) },
    };
  },
});
