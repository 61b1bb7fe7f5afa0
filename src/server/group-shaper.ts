import type { RewardResult, Sample } from '../core/index.js';
import type { GroupShaping } from '../rl/index.js';
import type { ApiIssue } from './api-error.js';

/** One scored group, as the group method sees it. */
export interface GroupShapingInput {
  readonly group: string;
  readonly samples: readonly Sample[];
  /** In sample order; a failed result (reward null) is a failed rollout for the method. */
  readonly results: readonly RewardResult[];
  /** Mean-pooled final hidden state per sample (CLIPO). */
  readonly hidden_states?: readonly (readonly number[])[];
  /** Other fields of the request's group (`step_rewards`, `correct`, `dims`, …), passed to the method's row. */
  readonly extras: Readonly<Record<string, unknown>>;
}

export interface ShapeContext {
  /** The training run whose state this call continues (state documents are keyed by it). */
  readonly run: string;
  readonly seed: number;
  readonly signal: AbortSignal;
}

/** Group methods behind one call; the method and its options are checked before any scoring is spent. */
export interface GroupShaper {
  readonly methods: readonly string[];
  prepare(
    method: string,
    options: Record<string, unknown>,
  ):
    | { ok: true; shape: (input: GroupShapingInput, context: ShapeContext) => Promise<GroupShaping> }
    | { ok: false; issues: ApiIssue[] };
}
