import { z } from 'zod';
import { GrpoOptionFields } from './group-row-schemas.js';
import { defineGroupMethod } from './group-shaping.js';
import { grpoAdvantages } from './grpo-advantages.js';
import { pearsonCorrelations } from './pearson-correlations.js';
import { readStateDocument, requireState } from './read-state-document.js';
import { applyReferenceNormalization, ReferenceStatsSchema } from './reference-frozen-normalization.js';
import { DimsGroupRowSchema } from './rfn-group-method.js';
import { loadRfnReference } from './rfn-reference-document.js';
import { scoredRollouts, spreadToGroup } from './scored-rollouts.js';
import { withStateLock } from './state-lock.js';
import { triFactorWeights } from './tri-factor-weights.js';
import { weightedReward } from './weighted-reward.js';

const TriFactorOptionsSchema = z.strictObject({
  /** P_k, fixed risk priority per dimension (safety > correctness > format); required. */
  priorities: z.array(z.number().finite().min(0)).min(1),
  /** tau_k, each dimension's target on the raw scale; one number for all. */
  targets: z.union([z.number().finite(), z.array(z.number().finite())]).default(1),
  delta_w: z.number().min(0).default(0.05),
  /** EMA decay of the weights across calls (w = m·previous + (1 - m)·new). */
  ema_decay: z.number().min(0).max(1).default(0.9),
  /** EMA decay of s̄_k, the recent mean of each raw dimension across calls [our reading]. */
  mean_decay: z.number().min(0).max(1).default(0.9),
  /** `reference`: combine RFN-normalized dimensions (needs fitted statistics); `none`: raw ones. */
  normalize: z.enum(['reference', 'none']).default('reference'),
  reference: ReferenceStatsSchema.optional(),
  ...GrpoOptionFields,
});

/** What Tri-Factor carries between calls of one run. */
export const TriFactorStateSchema = z.object({
  version: z.literal('rk-tri-factor/v1'),
  recent_means: z.array(z.number().finite()).min(1),
  weights: z.array(z.number().finite().min(0)).min(1),
  steps: z.number().int().positive(),
});
export type TriFactorState = z.infer<typeof TriFactorStateSchema>;

export const triFactorStateKey = (stateKey: string) => `tri-factor/${stateKey}`;

const columnMeans = (rows: readonly number[][]): number[] =>
  (rows[0] as number[]).map((_, k) => rows.reduce((a, r) => a + (r[k] as number), 0) / rows.length);

/**
 * Tri-Factor weighting: s̄_k is an EMA of the group means, rho the group's correlations, the
 * weights are EMA-smoothed against the last call's (both kept under `tri-factor/<state key>`);
 * the combined reward sum_k w_k · r~_k then goes through GRPO.
 */
export const triFactorGroupMethod = defineGroupMethod({
  name: 'tri_factor',
  description:
    'weights from weakness x priority x redundancy (EMA across calls in the store), weighted sum, then GRPO',
  inputSchema: DimsGroupRowSchema,
  optionsSchema: TriFactorOptionsSchema,
  shape: async (input, options, context) => {
    const state = requireState(context.state, 'tri_factor');
    const key = triFactorStateKey(context.stateKey ?? 'default');
    const stats =
      options.normalize === 'reference'
        ? await loadRfnReference(options.reference, context, 'tri_factor')
        : undefined;
    const scored = scoredRollouts(input.dims);
    const size = input.dims.length;
    const base = { group: input.group, method: 'tri_factor', failed: scored.failed };
    if (scored.values.length === 0) {
      return {
        ...base,
        advantages: new Array<number>(size).fill(0),
        shaped_rewards: new Array(size).fill(null),
      };
    }
    return withStateLock(state, key, async () => {
      const previous = await readStateDocument(state, key, TriFactorStateSchema);
      const batchMeans = columnMeans(scored.values);
      const m = options.mean_decay;
      const recentMeans = previous
        ? batchMeans.map((s, k) => m * (previous.recent_means[k] ?? s) + (1 - m) * s)
        : batchMeans;
      const correlations = pearsonCorrelations(scored.values);
      const factors = triFactorWeights({
        recentMeans,
        targets: options.targets,
        deltaW: options.delta_w,
        priorities: options.priorities,
        correlations,
        emaDecay: options.ema_decay,
        ...(previous && { previous: previous.weights }),
      });
      const normalized = scored.values.map((dims) =>
        stats ? applyReferenceNormalization(stats, dims) : dims,
      );
      const combined = normalized.map((r) => weightedReward(factors.weights, r));
      const next: TriFactorState = {
        version: 'rk-tri-factor/v1',
        recent_means: recentMeans,
        weights: factors.weights,
        steps: (previous?.steps ?? 0) + 1,
      };
      await state.putState(key, next);
      return {
        ...base,
        advantages: spreadToGroup(
          scored,
          size,
          grpoAdvantages(combined, { std: options.std, eps: options.eps }),
          0,
        ),
        weights: factors.weights,
        shaped_rewards: spreadToGroup<number | null>(scored, size, combined, null),
        detail: {
          weakness: factors.weakness,
          priority: factors.priority,
          redundancy: factors.redundancy,
          recent_means: recentMeans,
          correlations,
          normalized: spreadToGroup<number[] | null>(scored, size, normalized, null),
          step: next.steps,
        },
      };
    });
  },
});
