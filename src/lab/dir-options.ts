import { z } from 'zod';
import { checkHeads } from './check-heads.js';

const posInt = z.number().int().min(1, 'must be at least 1');
const probability = z.number().min(0, 'must be in [0, 1]').max(1, 'must be in [0, 1]');

/** The bias attributes DIR's CLUB term can penalize: the pair's length and format labels. */
export const DIR_ATTRIBUTES = ['length', 'format'] as const;
export type DirAttribute = (typeof DIR_ATTRIBUTES)[number];

/** `rewardkit lab dir`'s options; field names are its flags, camel-cased. */
export const dirOptionsSchema = z
  .object({
    attributes: z.array(z.enum(DIR_ATTRIBUTES)).min(1),
    bias: probability,
    formatBias: probability,
    labelNoise: probability,
    lambda: z.number().min(0, 'must be at least 0'),
    qSteps: posInt,
    qLr: z.number().gt(0, 'must be > 0'),
    qHidden: posInt,
    width: posInt,
    heads: posInt,
    depth: posInt,
    lr: z.number().gt(0, 'must be > 0'),
    batch: posInt,
    steps: posInt,
    warmup: z.number().int().min(0),
    evalPairs: z.number().int().min(8, 'must be at least 8'),
    refitSteps: posInt,
    seeds: z.array(z.number().int()).min(1),
    logEvery: posInt,
    checkpointEvery: posInt,
  })
  .superRefine((o, ctx) => {
    checkHeads(o, ctx);
    if (new Set(o.attributes).size !== o.attributes.length)
      ctx.addIssue({ code: 'custom', path: ['attributes'], message: 'lists an attribute twice' });
    if (o.warmup >= o.steps)
      ctx.addIssue({ code: 'custom', path: ['warmup'], message: 'must be below --steps' });
  });
export type DirOptions = z.output<typeof dirOptionsSchema>;

/** A minute or two on 2 cores: three seeds, two reward models each. */
export const DIR_DEFAULTS: DirOptions = {
  attributes: ['length', 'format'],
  bias: 0.8,
  formatBias: 0.8,
  labelNoise: 0.2,
  lambda: 1,
  qSteps: 5,
  qLr: 1e-2,
  qHidden: 64,
  width: 32,
  heads: 2,
  depth: 2,
  lr: 3e-3,
  batch: 32,
  steps: 300,
  warmup: 20,
  evalPairs: 512,
  refitSteps: 100,
  seeds: [0, 1, 2],
  logEvery: 10,
  checkpointEvery: 100,
};

/**
 * Below these sizes every DIR verdict is `too_small` (docs/lab.md): fewer steps leave the reward
 * model short of the content rule, and fewer evaluation pairs give accuracies and MI estimates
 * (each refitted q sees half of them) too coarse to compare.
 */
export const DIR_MINIMUM: Partial<Record<keyof DirOptions, number>> = {
  steps: 150,
  evalPairs: 256,
};
