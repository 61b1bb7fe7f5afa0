import { type ClipoHeadState, ClipoHeadStateSchema, createClipoHeadState } from '../rl/clipo-head-state.js';
import { clipoBatch, DEFAULT_CLIPO } from '../rl/clipo-shaping.js';
import { grpoAdvantages } from '../rl/grpo-advantages.js';
import { GRPO_EPS, type GroupUpdate, scoredGroups } from './rlvr-group-bounds.js';

/** D of CLIPO's head d -> D in the lab: our choice, small like the policy. */
export const CLIPO_HEAD_DIM = 32;

export interface ClipoLabInput {
  /** The head from the previous step (JSON, as checkpoints store it); undefined on the first step. */
  head: unknown;
  /** Mean-pooled final hidden states of every rollout of the batch (the policy's own). */
  hidden: readonly (readonly number[])[];
  rewards: readonly (number | undefined)[];
  group: number;
  /** Seeds the head's initial weights (the run's seed). */
  runSeed: number;
  /** Seeds this step's InfoNCE positive draw. */
  stepSeed: number;
  warmup: number;
  lambda: number;
  /** Temperature; CLIPO's 0.05 unless set (the rl.md vectors use 1). */
  tau?: number;
}

export interface ClipoLabStep extends GroupUpdate {
  /** r_ver + r_con of each kept rollout (r_ver alone during warm-up). */
  shaped: number[];
  /** The head after this step's AdamW step: carry it to the next step and into checkpoints. */
  head: ClipoHeadState;
}

/**
 * One CLIPO step of the lab's RL loop, with src/rl's server-side pieces: the head embeds each
 * scored rollout's pooled hidden state, the contrastive losses of that forward pass shape the
 * verifiable rewards (r = r_ver + max(−λ·l, −0.5) on correct anchors), the head takes one AdamW
 * step (lr 1e-3, wd 0.01) on the batch, then GRPO advantages (population std, as the lab's GRPO)
 * per group. Failed rollouts are left out of the head's batch and of the update.
 */
export function clipoLabStep(input: ClipoLabInput): ClipoLabStep {
  const groups = scoredGroups(input.rewards, input.group);
  const kept = groups.flat();
  const inputDim = input.hidden[0]?.length ?? 0;
  const head =
    input.head === undefined
      ? createClipoHeadState({
          inputDim,
          outputDim: CLIPO_HEAD_DIM,
          seed: input.runSeed,
          warmupSteps: input.warmup,
        })
      : ClipoHeadStateSchema.parse(input.head);
  const batch = clipoBatch(
    head,
    kept.map((i) => ({
      hidden: [...(input.hidden[i] as readonly number[])],
      reward: input.rewards[i] as number,
      group: Math.floor(i / input.group),
    })),
    {
      seed: input.stepSeed,
      tau: input.tau ?? DEFAULT_CLIPO.tau,
      lambda: input.lambda,
    },
  );
  const shapedOf = new Map(kept.map((i, k) => [i, batch.rewards[k] as number]));
  const advantages = groups.flatMap((members) =>
    grpoAdvantages(
      members.map((i) => shapedOf.get(i) as number),
      { std: 'population' },
    ),
  );
  return {
    index: kept,
    advantages,
    epsLow: kept.map(() => GRPO_EPS),
    epsHigh: kept.map(() => GRPO_EPS),
    shaped: batch.rewards,
    head: batch.state,
  };
}
