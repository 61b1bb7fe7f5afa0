import { z } from 'zod';
import { RewardKitError } from '../core/index.js';
import { brpoGroup } from './brpo-group.js';
import { GroupIdSchema, NullableRewardsSchema } from './group-row-schemas.js';
import { groupSeed } from './group-seed.js';
import { defineGroupMethod } from './group-shaping.js';
import { scoredRollouts, spreadToGroup } from './scored-rollouts.js';

/**
 * A BRPO row: the prompt and every rollout's response. A null response, or a null entry in the
 * optional `rewards`, marks a rollout that failed: it is neither judged nor picked as reference.
 */
const BrpoRowSchema = z
  .object({
    group: GroupIdSchema,
    prompt: z.string(),
    responses: z.array(z.string().nullable()).min(1),
    rewards: NullableRewardsSchema.optional(),
  })
  .superRefine((row, ctx) => {
    if (row.rewards !== undefined && row.rewards.length !== row.responses.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['rewards'],
        message: `has ${row.rewards.length} entries for ${row.responses.length} responses`,
      });
    }
  });

const BrpoOptionsSchema = z.strictObject({
  /** Judgments per rollout, each covering both orders. */
  votes: z.number().int().positive().default(1),
  /** Drop the group when |sum R| / G exceeds this. */
  skew_threshold: z.number().min(0).default(0.6),
});

/** BRPO through the context's pairwise judge; the reference is drawn from `groupSeed(seed, group)`. */
export const brpoGroupMethod = defineGroupMethod({
  name: 'brpo',
  description:
    'pairwise judge vs a seeded reference rollout, both orders; +1 only for a clean sweep; skew filter',
  inputSchema: BrpoRowSchema,
  optionsSchema: BrpoOptionsSchema,
  shape: async (input, options, context) => {
    if (!context.judge) {
      throw new RewardKitError(
        'RK_USAGE',
        'brpo needs a pairwise judge (the CLI: --models <file> --judge <name>)',
      );
    }
    const scored = scoredRollouts(input.responses.map((r, i) => (input.rewards?.[i] === null ? null : r)));
    const size = input.responses.length;
    const base = { group: input.group, method: 'brpo', failed: scored.failed };
    if (scored.values.length === 0) {
      return {
        ...base,
        advantages: new Array(size).fill(0),
        filtered: false,
        shaped_rewards: new Array(size).fill(null),
      };
    }
    const result = await brpoGroup({ prompt: input.prompt, responses: scored.values }, context.judge, {
      seed: groupSeed(context.seed ?? 0, input.group),
      votes: options.votes,
      skewThreshold: options.skew_threshold,
      ...(context.signal !== undefined && { signal: context.signal }),
    });
    const judgments = result.rollouts.flatMap((r) => r.judgments);
    // Not one readable comparison in the group is an outage (backend down, every reply broken),
    // not a group of losers: fail it rather than hand the trainer -1s or a "filtered" flag.
    if (judgments.length > 0 && judgments.every((j) => j.comparisons.every((c) => c.winner === undefined))) {
      const reason = judgments.find((j) => j.reason)?.reason ?? judgments[0]?.comparisons[0]?.invalid;
      throw new RewardKitError(
        'RK_SOURCE_FAILED',
        `brpo: no comparison in the group was readable (${judgments.length} judgments): ${reason ?? 'no reason given'}`,
      );
    }
    return {
      ...base,
      advantages: spreadToGroup(scored, size, result.advantages, 0),
      filtered: result.filtered,
      shaped_rewards: spreadToGroup<number | null>(scored, size, result.rewards, null),
      detail: {
        reference_index: scored.indices[result.referenceIndex],
        skew: result.skew,
        outcomes: spreadToGroup<string[] | null>(
          scored,
          size,
          result.rollouts.map((r) => r.outcomes),
          null,
        ),
        judge: context.judge.name,
        calls: result.rollouts.reduce((a, r) => a + r.judgments.reduce((b, j) => b + j.calls.length, 0), 0),
        // Each unreadable comparison counted as a loss, with the judge's reason.
        invalid: result.rollouts.flatMap((r) =>
          r.judgments.flatMap((j) =>
            j.comparisons.length === 0
              ? [{ index: scored.indices[r.index], reason: j.reason ?? 'no comparison' }]
              : j.comparisons.flatMap((c) =>
                  c.winner === undefined
                    ? [{ index: scored.indices[r.index], order: c.order, reason: c.invalid ?? 'no winner' }]
                    : [],
                ),
          ),
        ),
        // The raw replies that failed to parse, kept so an unreadable judgment can be inspected.
        unreadable_raw: result.rollouts.flatMap((r) =>
          r.judgments.flatMap((j) =>
            j.calls
              .filter((c) => c.parseError !== undefined)
              .map((c) => ({ index: scored.indices[r.index], raw: c.raw, parse_error: c.parseError })),
          ),
        ),
      },
    };
  },
});
