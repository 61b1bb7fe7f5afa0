import { z } from 'zod';
import { RewardKitError } from '../core/index.js';
import { checkHeads } from './check-heads.js';

export const NORM_PLACEMENTS = ['pre', 'post', 'deepnorm', 'siamese'] as const;
export type NormPlacement = (typeof NORM_PLACEMENTS)[number];

const positiveInt = z.number().int().min(1, 'must be at least 1');

/** A tiny transformer's shape. Field names are the lab commands' flag names, camel-cased. */
export const modelConfigSchema = z
  .object({
    vocab: positiveInt,
    width: positiveInt,
    heads: positiveInt,
    depth: positiveInt,
    seqLen: positiveInt,
    mlpRatio: positiveInt.default(4),
    norm: z.enum(NORM_PLACEMENTS).default('pre'),
    causal: z.boolean().default(true),
    tiedHead: z.boolean().default(true),
  })
  .superRefine((c, ctx) => checkHeads(c, ctx));
export type ModelConfig = z.output<typeof modelConfigSchema>;

/** The optimizer and schedule of one training run. */
export const trainConfigSchema = z.object({
  lr: z.number().gt(0, 'must be > 0'),
  steps: positiveInt,
  warmup: z.number().int().min(0).default(0),
  batch: positiveInt,
  beta1: z.number().min(0).lt(1).default(0.9),
  beta2: z.number().min(0).lt(1).default(0.95),
  weightDecay: z.number().min(0).default(0.1),
  clip: z.number().gt(0).default(1),
  seed: z.number().int().default(0),
});
export type TrainConfig = z.output<typeof trainConfigSchema>;

/** `seqLen` → `--seq-len`: the flag a config field comes from. */
export const flagOf = (field: PropertyKey): string =>
  `--${String(field).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * Parses a lab config and throws one `RK_USAGE` error naming each bad flag, before any work:
 * `--heads: 3 does not divide --width 64`. Array items name the flag too (`--lrs[1]: must be > 0`).
 */
export function parseLabConfig<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const [field, ...rest] = issue.path;
    const where =
      field === undefined ? 'config' : `${flagOf(field)}${rest.map((p) => `[${String(p)}]`).join('')}`;
    return `${where}: ${issue.message}`;
  });
  throw new RewardKitError('RK_USAGE', lines.join('; '));
}
