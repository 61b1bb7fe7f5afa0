import { z } from 'zod';
import { RewardKitError } from '../core/index.js';
import { DEFAULT_ADAMW } from './adamw-step.js';
import { ClipoHeadStateSchema, createClipoHeadState } from './clipo-head-state.js';
import { clipoBatch } from './clipo-shaping.js';
import { GroupIdSchema, GrpoOptionFields, NullableRewardsSchema } from './group-row-schemas.js';
import { groupSeed } from './group-seed.js';
import { defineGroupMethod } from './group-shaping.js';
import { grpoAdvantages } from './grpo-advantages.js';
import { readStateDocument, requireState } from './read-state-document.js';
import { scoredRollouts, spreadToGroup } from './scored-rollouts.js';
import { withStateLock } from './state-lock.js';

/**
 * A CLIPO row: verifiable rewards, each rollout's mean-pooled final hidden state, and optionally
 * its correctness (default reward > 0). A failed rollout (null reward) may have a null state.
 */
const ClipoRowSchema = z
  .object({
    group: GroupIdSchema,
    rewards: NullableRewardsSchema,
    hidden_states: z.array(z.array(z.number().finite()).min(1).nullable()),
    correct: z.array(z.boolean().nullable()).optional(),
  })
  .superRefine((row, ctx) => {
    const n = row.rewards.length;
    if (row.hidden_states.length !== n) {
      ctx.addIssue({
        code: 'custom',
        path: ['hidden_states'],
        message: `has ${row.hidden_states.length} entries for ${n} rewards`,
      });
    }
    if (row.correct !== undefined && row.correct.length !== n) {
      ctx.addIssue({
        code: 'custom',
        path: ['correct'],
        message: `has ${row.correct.length} entries for ${n} rewards`,
      });
    }
    const width = row.hidden_states.find((h) => h !== null)?.length;
    row.hidden_states.forEach((h, i) => {
      if (h === null && row.rewards[i] !== null) {
        ctx.addIssue({ code: 'custom', path: ['hidden_states', i], message: 'missing for a scored rollout' });
      } else if (h !== null && h.length !== width) {
        ctx.addIssue({
          code: 'custom',
          path: ['hidden_states', i],
          message: `has ${h.length} numbers, the first has ${width}`,
        });
      }
    });
  });

const ClipoOptionsSchema = z.strictObject({
  tau: z.number().positive().default(0.05),
  lambda: z.number().min(0).default(0.2),
  floor: z.number().max(0).default(-0.5),
  variant: z.enum(['infonce', 'supcon_out', 'supcon_in', 'soft_nn']).default('infonce'),
  /** D of the head d -> D; our choice, used only when the head is created. */
  output_dim: z.number().int().positive().default(64),
  /** Batches during which only the head trains; used only when the head is created. */
  warmup_steps: z.number().int().min(0).default(10),
  lr: z.number().positive().default(DEFAULT_ADAMW.lr),
  weight_decay: z.number().min(0).default(DEFAULT_ADAMW.weightDecay),
  ...GrpoOptionFields,
});

/** The state document of a run's CLIPO head. */
export const clipoStateKey = (stateKey: string) => `clipo-head/${stateKey}`;

/**
 * CLIPO: one head step per group (each call is a batch), rewards shaped from the forward pass
 * before the step, then GRPO. The head is created on first use from the hidden-state width and
 * the seed, and stored under `clipo-head/<state key>` after every group.
 */
export const clipoGroupMethod = defineGroupMethod({
  name: 'clipo',
  description:
    'contrastive shaping of correct rollouts from pooled hidden states (head kept in the store), then GRPO',
  inputSchema: ClipoRowSchema,
  optionsSchema: ClipoOptionsSchema,
  shape: async (input, options, context) => {
    const state = requireState(context.state, 'clipo');
    const key = clipoStateKey(context.stateKey ?? 'default');
    const scored = scoredRollouts(input.rewards);
    const size = input.rewards.length;
    const seed = context.seed ?? 0;
    return withStateLock(state, key, async () => {
      const stored = await readStateDocument(state, key, ClipoHeadStateSchema);
      const inputDim = input.hidden_states.find((h) => h !== null)?.length;
      if (inputDim === undefined) {
        return {
          group: input.group,
          method: 'clipo',
          advantages: new Array<number>(size).fill(0),
          failed: scored.failed,
          shaped_rewards: new Array<number | null>(size).fill(null),
        };
      }
      if (stored && stored.inputDim !== inputDim) {
        throw new RewardKitError(
          'RK_INPUT_SCHEMA',
          `hidden_states have ${inputDim} numbers, the head in "${key}" expects ${stored.inputDim} (use another --state-key for another model)`,
        );
      }
      const head =
        stored ??
        createClipoHeadState({
          inputDim,
          outputDim: options.output_dim,
          seed,
          warmupSteps: options.warmup_steps,
        });
      const batch = clipoBatch(
        head,
        scored.indices.map((i, k) => ({
          hidden: input.hidden_states[i] as number[],
          reward: scored.values[k] as number,
          group: input.group,
          ...(typeof input.correct?.[i] === 'boolean' && { correct: input.correct[i] as boolean }),
        })),
        {
          seed: groupSeed(seed + head.step, input.group),
          tau: options.tau,
          lambda: options.lambda,
          floor: options.floor,
          variant: options.variant,
          adamW: { ...DEFAULT_ADAMW, lr: options.lr, weightDecay: options.weight_decay },
        },
      );
      await state.putState(key, batch.state);
      const advantages = grpoAdvantages(batch.rewards, { std: options.std, eps: options.eps });
      return {
        group: input.group,
        method: 'clipo',
        advantages: spreadToGroup(scored, size, advantages, 0),
        failed: scored.failed,
        shaped_rewards: spreadToGroup<number | null>(scored, size, batch.rewards, null),
        detail: {
          shaped: batch.shaped,
          contrastive: spreadToGroup(scored, size, batch.contrastive, 0),
          losses: spreadToGroup<number | null>(
            scored,
            size,
            batch.losses.map((l) => l ?? null),
            null,
          ),
          counted: batch.counted,
          mean_loss: batch.meanLoss ?? null,
          head_step: batch.state.step,
          warmup_remaining: batch.state.warmupRemaining,
        },
      };
    });
  },
});
