import { exactMatch } from '../../verify/reference/index.js';
import type { FixEvaluator } from './analyze-trajectory.js';

/**
 * The evaluator of trajectories that carry a `reference` answer: the analyst's corrected answer
 * must match it (normalized exact match, as the reference verifier does); a run without a
 * reference has no evaluator here, so its lessons stay ungated.
 */
export const referenceEvaluator: FixEvaluator = (trajectory, { fix }) => {
  if (trajectory.reference === undefined) return undefined;
  return fix.answer !== null && exactMatch(fix.answer, trajectory.reference).match;
};
