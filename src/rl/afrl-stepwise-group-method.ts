import { z } from 'zod';
import { DimsSchema, GroupIdSchema, GrpoOptionFields } from './group-row-schemas.js';
import { defineGroupMethod } from './group-shaping.js';
import { scoredRollouts, spreadToGroup } from './scored-rollouts.js';
import { stepwiseGroupAdvantages } from './stepwise-advantages.js';

/** `step_rewards[i][k]`: rollout i's reward for step k (0 = the score token); null when it failed. */
const StepwiseRowSchema = z.object({ group: GroupIdSchema, step_rewards: DimsSchema });

/**
 * AFRL stepwise GRPO: each step normalized across the group on its own. `advantages` carries
 * step 0 (the score token) so a client that reads only it still gets the answer-first signal;
 * `step_advantages` has every step.
 */
export const afrlStepwiseGroupMethod = defineGroupMethod({
  name: 'afrl_stepwise',
  description: 'per-step rewards -> per-step GRPO advantages (step 0 = the score token)',
  inputSchema: StepwiseRowSchema,
  optionsSchema: z.strictObject(GrpoOptionFields),
  shape: async (input, options) => {
    const scored = scoredRollouts(input.step_rewards);
    const size = input.step_rewards.length;
    const steps = scored.values[0]?.length ?? 0;
    const perStep =
      scored.values.length === 0
        ? []
        : stepwiseGroupAdvantages(scored.values, { std: options.std, eps: options.eps });
    const stepAdvantages = spreadToGroup<number[] | null>(scored, size, perStep, null).map(
      (row) => row ?? new Array<number>(steps).fill(0),
    );
    return {
      group: input.group,
      method: 'afrl_stepwise',
      advantages: stepAdvantages.map((row) => row[0] ?? 0),
      failed: scored.failed,
      step_advantages: stepAdvantages,
    };
  },
});
