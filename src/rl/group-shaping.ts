import type { z } from 'zod';
import type { PairwiseJudge } from '../judges/index.js';
import type { StateAccess } from './state-access.js';

/** What one group method returns for one group; snake_case because it is the wire format. */
export interface GroupShaping {
  group: string;
  method: string;
  /** One per rollout, in input order; 0 for a failed rollout and for a filtered group. */
  advantages: number[];
  /** ETR: per-rollout bounds on the probability ratio, [1 - eps^-, 1 + eps^+]. */
  clip_bounds?: { low: number; high: number }[];
  /** BRPO: the skew filter dropped the group (advantages all 0). */
  filtered?: boolean;
  /** Indices of rollouts that failed to score (null reward): left out of the statistics, advantage 0. */
  failed?: number[];
  /** RFN / Tri-Factor: the dimension weights the rewards were combined with. */
  weights?: number[];
  /** The scalar rewards the advantages were computed from, when the method made them (null if failed). */
  shaped_rewards?: (number | null)[];
  /** AFRL stepwise: `step_advantages[i][k]` for the tokens of step k of rollout i. */
  step_advantages?: number[][];
  /** Method-specific record (BRPO outcomes, CLIPO losses, Tri-Factor factors, …). */
  detail?: unknown;
}

/** Side effects a method may need; each is passed in, never reached for. */
export interface GroupShapingContext {
  /** Where CLIPO, RFN and Tri-Factor keep their state; required by those methods. */
  state?: StateAccess;
  /** Names the state documents (`clipo-head/<key>`, …): one key per training run. Default `default`. */
  stateKey?: string;
  /** BRPO's pairwise judge. */
  judge?: PairwiseJudge;
  /** Combined with the group id (see `groupSeed`); default 0. */
  seed?: number;
  signal?: AbortSignal;
}

/** One registered group method: how its rows and options are read, and what it does with them. */
export interface GroupMethod<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  /** A row: `{group, ...}`; unknown keys are ignored (rows often carry ids and prompts). */
  readonly inputSchema: I;
  /** Options with their defaults; unknown keys are errors. */
  readonly optionsSchema: O;
  shape(input: z.output<I>, options: z.output<O>, context: GroupShapingContext): Promise<GroupShaping>;
}

/** Declares a method with its schemas' types inferred (an identity function). */
export function defineGroupMethod<I extends z.ZodType, O extends z.ZodType>(
  method: GroupMethod<I, O>,
): GroupMethod<I, O> {
  return method;
}
