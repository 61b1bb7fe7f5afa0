import type { Params } from './layers.js';
import { afrlLabStep } from './rlvr-afrl.js';
import { brpoLabStep } from './rlvr-brpo.js';
import { clipoLabStep } from './rlvr-clipo.js';
import { groupBounds } from './rlvr-group-bounds.js';
import type { RlvrMethod, RlvrOptions } from './rlvr-options.js';
import { type PolicyShape, pooledHidden, type Rollout } from './rlvr-policy.js';
import type { RlvrTask } from './rlvr-tasks.js';

/** One RL step's batch, as every method sees it (`group` consecutive rollouts share a prompt). */
export interface MethodStepInput {
  method: RlvrMethod;
  o: RlvrOptions;
  tasks: readonly RlvrTask[];
  rollouts: readonly Rollout[];
  /** The reward source's score per rollout; undefined where it failed (left out of the update). */
  rewards: readonly (number | undefined)[];
  /** The policy that sampled the rollouts (CLIPO pools its hidden states). */
  params: Params;
  shape: PolicyShape;
  runSeed: number;
  /** A seed for this step's draws (CLIPO's positive, BRPO's references). */
  stepSeed: number;
  /** What the method carried from the previous step (CLIPO's head); undefined on the first. */
  carried: unknown;
}

/** What the loss takes from a method: the kept rollouts, their advantages and bounds, what to carry. */
export interface MethodStep {
  index: number[];
  /** Per kept rollout, or per token ([kept, completionLen]) for AFRL. */
  advantages: number[] | number[][];
  epsLow: number[];
  epsHigh: number[];
  /** λ of AFRL's SFT auxiliary on the step's gold answer-first sequences. */
  sftLambda?: number;
  /** State to carry to the next step and into checkpoints. */
  carried?: unknown;
}

/** Dispatches one step to its method's module; each module reuses src/rl's server-side pieces. */
export async function methodStep(s: MethodStepInput): Promise<MethodStep> {
  const { o } = s;
  switch (s.method) {
    case 'grpo':
    case 'etr':
      return groupBounds(s.method, s.rewards, o.group);
    case 'clipo': {
      const step = clipoLabStep({
        head: s.carried,
        hidden: pooledHidden(
          s.params,
          s.shape,
          s.tasks.map((t) => t.prompt),
          s.rollouts,
        ),
        rewards: s.rewards,
        group: o.group,
        runSeed: s.runSeed,
        stepSeed: s.stepSeed,
        warmup: o.clipoWarmup,
        lambda: o.clipoLambda,
      });
      return { ...step, carried: step.head };
    }
    case 'brpo':
      return brpoLabStep(
        s.rollouts.map((r) => r.text),
        s.rewards,
        o.group,
        (g) => s.stepSeed + g,
      );
    case 'afrl':
      return {
        ...afrlLabStep(s.tasks, s.rollouts, s.rewards, o.group, s.shape.completionLen),
        sftLambda: o.afrlLambda,
      };
  }
}
