import { z } from 'zod';

/** A group id; a number is accepted and kept as its decimal string. */
export const GroupIdSchema = z
  .union([z.string().min(1), z.number().finite()], {
    error: 'expected a group id (a non-empty string or a number)',
  })
  .transform(String);

/** One reward per rollout; null marks a rollout that failed to score (see `scoredRollouts`). */
export const NullableRewardsSchema = z.array(z.number().finite().nullable()).min(1);

/** A row with scalar rewards: `{group, rewards}`. */
export const ScalarGroupRowSchema = z.object({ group: GroupIdSchema, rewards: NullableRewardsSchema });

/** `unbiased` (verl, TRL), `population`, or `none` (Dr.GRPO: centre only). */
export const GroupStdSchema = z.enum(['unbiased', 'population', 'none']);

/** GRPO's normalization options, shared by every method that ends in GRPO. */
export const GrpoOptionFields = {
  std: GroupStdSchema.default('unbiased'),
  eps: z.number().positive().default(1e-6),
};

/** Rows of `dims` (one vector per rollout, null when it failed) must share one width. */
export const DimsSchema = z
  .array(z.array(z.number().finite()).min(1).nullable())
  .min(1)
  .superRefine((rows, ctx) => {
    const width = rows.find((r) => r !== null)?.length;
    rows.forEach((row, i) => {
      if (row !== null && row.length !== width) {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `has ${row.length} dimensions, the first scored rollout has ${width}`,
        });
      }
    });
  });
