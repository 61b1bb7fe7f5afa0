import { z } from 'zod';
import { checkHeads } from './check-heads.js';

const posInt = z.number().int().min(1, 'must be at least 1');

/** `none` is the no-latent control: the same model and steps with nothing fed back. */
export const GAP_MODES = ['none', 'raw', 'norm-matched', 'pca'] as const;
export type GapMode = (typeof GAP_MODES)[number];

/**
 * Which modes get the context-level loss (the latent's distance to z's embedding, on the examples
 * the capacity rule selects): `aligned`, only the aligned modes, so raw h is the plain baseline;
 * `all`, raw h too (the toy before this switch); `off`, none (feature-level alignment alone). The
 * no-latent control never does: it has no latent.
 */
export const GAP_CONTEXT_LEVELS = ['aligned', 'all', 'off'] as const;
export type GapContextLevel = (typeof GAP_CONTEXT_LEVELS)[number];

/** Whether `mode` trains with the context-level loss under `level`. */
export function usesContextLoss(mode: GapMode, level: GapContextLevel): boolean {
  if (mode === 'none' || level === 'off') return false;
  return level === 'all' || mode !== 'raw';
}

/** `rewardkit lab gap`'s options; field names are its flags, camel-cased. */
export const gapOptionsSchema = z
  .object({
    modes: z.array(z.enum(GAP_MODES)).min(1),
    width: posInt,
    heads: posInt,
    depth: posInt,
    lr: z.number().gt(0, 'must be > 0'),
    batch: posInt,
    baseSteps: posInt,
    latentSteps: posInt,
    warmup: z.number().int().min(0),
    pcaK: posInt,
    tau: z.number().min(0).max(1),
    latentWeight: z.number().min(0),
    contextLevel: z.enum(GAP_CONTEXT_LEVELS),
    evalExamples: posInt,
    seeds: z.array(z.number().int()).min(1),
    logEvery: posInt,
    checkpointEvery: posInt,
  })
  .superRefine((o, ctx) => {
    checkHeads(o, ctx);
    if (o.pcaK > o.width)
      ctx.addIssue({ code: 'custom', path: ['pcaK'], message: `must be at most --width ${o.width}` });
    if (o.warmup >= Math.min(o.baseSteps, o.latentSteps))
      ctx.addIssue({
        code: 'custom',
        path: ['warmup'],
        message: 'must be below --base-steps and --latent-steps',
      });
  });
export type GapOptions = z.output<typeof gapOptionsSchema>;

/**
 * Minutes on 2 cores, three seeds: each seed trains its own base model and every mode from it.
 * The no-latent control adds a fourth latent run per seed.
 */
export const GAP_DEFAULTS: GapOptions = {
  modes: ['none', 'raw', 'norm-matched', 'pca'],
  width: 64,
  heads: 4,
  depth: 4,
  lr: 3e-3,
  batch: 64,
  baseSteps: 600,
  latentSteps: 300,
  warmup: 30,
  pcaK: 8,
  tau: 0.5,
  latentWeight: 1,
  contextLevel: 'aligned',
  evalExamples: 500,
  seeds: [0, 1, 2],
  logEvery: 10,
  checkpointEvery: 100,
};

/**
 * Below these sizes every GAP verdict is `too_small` (docs/lab.md): fewer base steps leave the
 * base model short of the text chain, fewer latent steps leave the modes untrained, and fewer
 * held-out examples give an accuracy too coarse to compare. The defaults are twice these.
 */
export const GAP_MINIMUM: Partial<Record<keyof GapOptions, number>> = {
  baseSteps: 300,
  latentSteps: 150,
  evalExamples: 200,
};
