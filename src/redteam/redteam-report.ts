import type { LlmUsage } from '../core/index.js';
import type { ExploitSummary } from './lift-stats.js';
import type { ScoringFailure } from './run-redteam.js';

/** What one pass's model calls cost, as the judge commands print it. */
export interface PassCost {
  readonly calls: number;
  readonly tokens: number;
  readonly usage: LlmUsage;
}

/** `redteam.json`: what `rewardkit redteam` writes, stores and renders as HTML. */
export interface RedteamReport {
  readonly spec: string;
  readonly samples: number;
  /** Scorings done: the original pass and one per exploited response. */
  readonly scorings: number;
  /** Scorings per sample: the run's cost in scoring passes. */
  readonly cost_multiple: number;
  /** Judge specs only: the model calls of the original pass and of the exploit passes. */
  readonly judge_cost?: { readonly original: PassCost; readonly exploits: PassCost };
  readonly exploits: readonly ExploitSummary[];
  /** Every failed scoring with the evaluator's reasons; left out of the statistics. */
  readonly failures: readonly ScoringFailure[];
}
