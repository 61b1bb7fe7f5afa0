import { z } from 'zod';
import { etrClipBounds } from './etr-clip-bounds.js';
import { GroupStdSchema, GrpoOptionFields, ScalarGroupRowSchema } from './group-row-schemas.js';
import { defineGroupMethod } from './group-shaping.js';
import { scoredRollouts, spreadToGroup } from './scored-rollouts.js';

const EtrOptionsSchema = z
  .strictObject({
    eps_low: z.number().positive().default(0.2),
    eps_high: z.number().positive().default(0.2),
    alpha: z.number().min(0).default(0.5),
    beta: z.number().min(0).max(1).default(0.5),
    eps_min: z.number().positive().default(0.02),
    eps_max: z.number().positive().default(0.5),
    std: GroupStdSchema.default('population'),
    eps: GrpoOptionFields.eps,
    /** Default: `pass-rate` for 0/1 (or ±1) rewards, else `variance`. */
    zone: z.enum(['pass-rate', 'variance']).optional(),
    reward_range: z.tuple([z.number().finite(), z.number().finite()]).optional(),
  })
  .refine((o) => o.eps_min <= o.eps_max, { path: ['eps_min'], message: 'must not exceed eps_max' });

/**
 * ETR: GRPO advantages (population std by default) plus per-rollout ratio bounds
 * [1 - eps_i^-, 1 + eps_i^+]. A failed rollout gets the bounds of an advantage of 0.
 */
export const etrGroupMethod = defineGroupMethod({
  name: 'etr',
  description: 'GRPO advantages with per-rollout clip bounds that widen with |A| and the learning zone',
  inputSchema: ScalarGroupRowSchema,
  optionsSchema: EtrOptionsSchema,
  shape: async (input, options) => {
    const scored = scoredRollouts(input.rewards);
    const size = input.rewards.length;
    const base = { group: input.group, method: 'etr', failed: scored.failed };
    const clamp = (x: number) => Math.min(options.eps_max, Math.max(options.eps_min, x));
    if (scored.values.length === 0) {
      const bound = { low: 1 - clamp(options.eps_low), high: 1 + clamp(options.eps_high) };
      return { ...base, advantages: new Array(size).fill(0), clip_bounds: new Array(size).fill(bound) };
    }
    const etr = etrClipBounds(scored.values, {
      epsLow: options.eps_low,
      epsHigh: options.eps_high,
      alpha: options.alpha,
      beta: options.beta,
      epsMin: options.eps_min,
      epsMax: options.eps_max,
      std: options.std,
      eps: options.eps,
      ...(options.zone !== undefined && { zone: options.zone }),
      ...(options.reward_range !== undefined && { rewardRange: options.reward_range }),
    });
    const restLow = clamp(options.eps_low * etr.psi);
    const restHigh = clamp(options.eps_high * etr.psi);
    const epsLow = spreadToGroup(scored, size, etr.epsLow, restLow);
    const epsHigh = spreadToGroup(scored, size, etr.epsHigh, restHigh);
    return {
      ...base,
      advantages: spreadToGroup(scored, size, etr.advantages, 0),
      clip_bounds: epsLow.map((low, i) => ({ low: 1 - low, high: 1 + (epsHigh[i] as number) })),
      detail: { eps_low: epsLow, eps_high: epsHigh, zone: etr.zone, psi: etr.psi },
    };
  },
});
