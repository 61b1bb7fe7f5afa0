import { allAggregates, type EvpvAggregator } from './evpv-aggregators.js';
import { gateStepScores } from './gate-step-scores.js';
import { type PolicyStep, visualStepIndices } from './policy-steps.js';

export interface GatedCandidate {
  readonly visual_steps: number[];
  readonly gated_scores: number[];
  readonly scores: Record<EvpvAggregator, number>;
}

/** A candidate's gated step scores and all five aggregates, from its raw judgments and reliability p. */
export function gateCandidate(
  steps: readonly PolicyStep[],
  raw: readonly number[],
  p: number,
): GatedCandidate {
  const visual_steps = visualStepIndices(steps);
  const gated_scores = gateStepScores(raw, visual_steps, p);
  return { visual_steps, gated_scores, scores: allAggregates(gated_scores) };
}
