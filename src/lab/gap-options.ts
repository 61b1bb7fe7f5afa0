import { z } from 'zod';
import { checkHeads } from './check-heads.js';

const posInt = z.number().int().min(1, 'must be at least 1');

export const GAP_MODES = ['raw', 'norm-matched', 'pca'] as const;
export type GapMode = (typeof GAP_MODES)[number];

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

/** Minutes on 2 cores, three seeds: each seed trains its own base model and every mode from it. */
export const GAP_DEFAULTS: GapOptions = {
  modes: ['raw', 'norm-matched', 'pca'],
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
