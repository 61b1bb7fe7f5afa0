import { z } from 'zod';
import { checkHeads } from './check-heads.js';
import { MDM_RUN_NAMES } from './mdm-batch.js';
import { MDM_TASKS } from './mdm-tasks.js';

const posInt = z.number().int().min(1, 'must be at least 1');

/** `rewardkit lab mdm`'s options; field names are its flags, camel-cased. */
export const mdmOptionsSchema = z
  .object({
    task: z.enum(MDM_TASKS),
    digits: posInt,
    methods: z.array(z.enum(MDM_RUN_NAMES)).min(1),
    seeds: z.array(z.number().int()).min(1),
    width: posInt,
    heads: posInt,
    depth: posInt,
    lr: z.number().gt(0, 'must be > 0'),
    batch: posInt,
    steps: posInt,
    warmup: z.number().int().min(0),
    evalExamples: posInt,
    varianceDraws: z.number().int().min(2, 'must be at least 2'),
    varianceMasks: z.number().int().min(2, 'must be at least 2'),
    varianceSteps: z.number().int().min(0),
    ppotsGrid: z.number().int().min(3, 'must be at least 3'),
    ppotsExamples: posInt,
    ppotsMasks: posInt,
    weightCap: z.number().gt(0, 'must be > 0'),
    logEvery: posInt,
    checkpointEvery: posInt,
  })
  .superRefine((o, ctx) => {
    checkHeads(o, ctx);
    if (o.warmup >= o.steps)
      ctx.addIssue({ code: 'custom', path: ['warmup'], message: `must be below --steps ${o.steps}` });
  });
export type MdmOptions = z.output<typeof mdmOptionsSchema>;

/**
 * Minutes on 2 cores: sorting 7 digits is neither solved at once nor out of reach in 300 steps.
 * The methods are the claim's, each with its compute-matched baseline (pair for MIRROR's doubled
 * rows) and the autoregressive baseline; StraTS and ISAD are in `--full`, which keeps the default
 * run's training rows near what it was before the baselines (9 units of `batch` rows per step
 * against 8).
 */
export const MDM_DEFAULTS: MdmOptions = {
  task: 'sorting',
  digits: 5,
  methods: ['standard', 'ppots', 'mirror', 'pair', 'ppots+mirror', 'ar'],
  seeds: [0, 1, 2],
  width: 64,
  heads: 4,
  depth: 2,
  lr: 3e-3,
  batch: 32,
  steps: 300,
  warmup: 30,
  evalExamples: 200,
  varianceDraws: 8,
  varianceMasks: 4,
  varianceSteps: 100,
  ppotsGrid: 20,
  ppotsExamples: 16,
  ppotsMasks: 4,
  weightCap: 10,
  logEvery: 10,
  checkpointEvery: 100,
};

/** The notes' comparison (`--full`): 5 seeds, longer training. */
export const MDM_FULL: MdmOptions = {
  ...MDM_DEFAULTS,
  methods: ['standard', 'ppots', 'mirror', 'pair', 'strats', 'isad', 'ppots+mirror', 'ar'],
  seeds: [0, 1, 2, 3, 4],
  steps: 2000,
  warmup: 100,
  checkpointEvery: 250,
};

/**
 * Below these sizes every MDM verdict is `too_small` (docs/lab.md): shorter training leaves every
 * method near chance, fewer held-out prompts give an exact match too coarse to compare, and a
 * reference model with fewer steps or fewer t-draws makes the variance figures noise. The
 * defaults are at least twice these.
 */
export const MDM_MINIMUM: Partial<Record<keyof MdmOptions, number>> = {
  steps: 150,
  evalExamples: 100,
  varianceSteps: 50,
  varianceDraws: 4,
};
