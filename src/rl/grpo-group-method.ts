import { z } from 'zod';
import { GrpoOptionFields, ScalarGroupRowSchema } from './group-row-schemas.js';
import { defineGroupMethod } from './group-shaping.js';
import { grpoAdvantages } from './grpo-advantages.js';
import { scoredRollouts, spreadToGroup } from './scored-rollouts.js';

/** GRPO over the scored rollouts of a group; `std: none` is Dr.GRPO. */
export const grpoGroupMethod = defineGroupMethod({
  name: 'grpo',
  description: 'A_i = (r_i - mean) / (std + eps); std unbiased | population | none (Dr.GRPO)',
  inputSchema: ScalarGroupRowSchema,
  optionsSchema: z.strictObject(GrpoOptionFields),
  shape: async (input, options) => {
    const scored = scoredRollouts(input.rewards);
    const advantages =
      scored.values.length === 0 ? [] : grpoAdvantages(scored.values, { std: options.std, eps: options.eps });
    return {
      group: input.group,
      method: 'grpo',
      advantages: spreadToGroup(scored, input.rewards.length, advantages, 0),
      failed: scored.failed,
    };
  },
});
