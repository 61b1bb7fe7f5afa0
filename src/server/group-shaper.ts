import type { Sample } from '../core/index.js';
import type { ApiIssue } from './api-error.js';

/** One scored group, as the group method sees it. Null rewards are samples that failed to score. */
export interface GroupShapingInput {
  readonly group: string;
  readonly rewards: readonly (number | null)[];
  readonly samples: readonly Sample[];
  readonly hidden_states?: readonly (readonly number[])[];
}

/** What a group method returns for one group (see docs/server.md). */
export interface GroupShaping {
  advantages: number[];
  clip_bounds?: { low: number; high: number }[];
  filtered?: boolean;
  /** Indexes of samples that failed to score: advantage 0, left out of the statistics. */
  failed?: number[];
  weights?: number[];
  shaped_rewards?: number[];
  detail?: unknown;
}

export interface ShapeContext {
  /** The training run whose state this call continues (state documents are keyed by it). */
  readonly run: string;
  readonly seed: number;
  readonly signal: AbortSignal;
}

/** Group methods behind one call; options are checked before any scoring is spent. */
export interface GroupShaper {
  readonly methods: readonly string[];
  prepare(
    method: string,
    options: Record<string, unknown>,
  ):
    | { ok: true; shape: (input: GroupShapingInput, context: ShapeContext) => Promise<GroupShaping> }
    | { ok: false; issues: ApiIssue[] };
}
