import { z } from 'zod';
import { checkHeads } from './check-heads.js';
import { REWARD_KINDS } from './rlvr-rewards.js';
import { REWARD_TRANSPORTS } from './rlvr-step-rewards.js';
import { ANSWER_FORMATS, RLVR_TASK_KINDS } from './rlvr-tasks.js';

const posInt = z.number().int().min(1, 'must be at least 1');

/**
 * The RL methods of `rewardkit lab rlvr`: GRPO, ETR (elastic clip bounds), CLIPO (contrastive
 * reward shaping from the policy's hidden states), BRPO (pairwise rewards against a reference
 * rollout) and AFRL (answer-first format, stepwise advantages, SFT auxiliary loss).
 */
export const RLVR_METHODS = ['grpo', 'etr', 'clipo', 'brpo', 'afrl'] as const;
export type RlvrMethod = (typeof RLVR_METHODS)[number];

/** `rewardkit lab rlvr`'s options; field names are its flags, camel-cased. */
export const rlvrOptionsSchema = z
  .object({
    task: z.enum(RLVR_TASK_KINDS),
    methods: z.array(z.enum(RLVR_METHODS)).min(1),
    reward: z.array(z.enum(REWARD_KINDS)).min(1),
    rewardTransport: z.enum(REWARD_TRANSPORTS),
    completionRoom: z.number().int().min(0),
    answerFormat: z.enum(ANSWER_FORMATS),
    formatWeight: z.number().min(0).lt(1, 'must be below 1 (the answer check needs a weight)'),
    digits: z.number().int().min(1).max(6),
    width: posInt,
    heads: posInt,
    depth: posInt,
    sftSteps: posInt,
    sftBatch: posInt,
    sftLr: z.number().gt(0, 'must be > 0'),
    rlSteps: posInt,
    prompts: posInt,
    group: z.number().int().min(2, 'must be at least 2 (a group of one has no advantage)'),
    temperature: z.number().gt(0, 'must be > 0'),
    lr: z.number().gt(0, 'must be > 0'),
    klCoef: z.number().min(0),
    evalExamples: posInt,
    evalEvery: posInt,
    seeds: z.array(z.number().int()).min(1),
    checkpointEvery: posInt,
    clipoWarmup: z.number().int().min(0),
    clipoLambda: z.number().min(0),
    afrlLambda: z.number().min(0),
  })
  .superRefine((o, ctx) => {
    checkHeads(o, ctx);
    // Countdown's check reads a `#### ` line; AFRL's consistency check its own answer-first line.
    if (o.answerFormat === 'boxed' && o.task === 'countdown')
      ctx.addIssue({
        code: 'custom',
        path: ['answerFormat'],
        message: 'boxed answers: addition and sorting only',
      });
    if (o.answerFormat === 'boxed' && o.methods.includes('afrl'))
      ctx.addIssue({
        code: 'custom',
        path: ['answerFormat'],
        message: 'afrl writes its own answer-first format (#### …)',
      });
  });
export type RlvrOptions = z.output<typeof rlvrOptionsSchema>;

/**
 * One small run: three seeds, two methods, about 5 minutes on one core. The SFT settings give a
 * start between 24% and 71% greedy accuracy on seeds 0–2 (600 steps at lr 1e-2 left seeds 1 and 2
 * at 13%, where groups are all 0); RL with 16 prompts a step at lr 2e-4 and no KL penalty was the
 * one combination tried that raised greedy accuracy on all three (docs/lab.md's table).
 */
export const RLVR_DEFAULTS: RlvrOptions = {
  task: 'addition',
  methods: ['grpo', 'etr'],
  reward: ['verifier'],
  rewardTransport: 'in-process',
  completionRoom: 4,
  answerFormat: 'hash',
  formatWeight: 0,
  digits: 2,
  width: 48,
  heads: 4,
  depth: 2,
  sftSteps: 700,
  sftBatch: 32,
  sftLr: 2e-2,
  rlSteps: 40,
  prompts: 16,
  group: 8,
  temperature: 1,
  lr: 2e-4,
  klCoef: 0,
  evalExamples: 200,
  evalEvery: 10,
  seeds: [0, 1, 2],
  checkpointEvery: 10,
  clipoWarmup: 5,
  clipoLambda: 0.2,
  afrlLambda: 0.1,
};

/**
 * Below these sizes every RLVR verdict is `too_small` (docs/lab.md): fewer SFT steps leave the
 * start near 0% accuracy, where a group's rewards are all 0 and carry no advantage; fewer RL steps move the
 * policy too little to measure against its SFT start, fewer groups per step make each step's
 * gradient one prompt's noise, and fewer held-out examples make an accuracy step of 1% one task.
 */
export const RLVR_MINIMUM: Partial<Record<keyof RlvrOptions, number>> = {
  sftSteps: 300,
  rlSteps: 20,
  prompts: 4,
  evalExamples: 100,
};
