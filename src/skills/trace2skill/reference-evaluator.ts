import { containsMatch, exactMatch } from '../../verify/reference/index.js';
import type { FixEvaluator } from './analyze-trajectory.js';

/**
 * The evaluator of trajectories that carry a `reference` answer: the analyst's corrected answer
 * must match it (normalized exact match, as the reference verifier does). A run without a
 * reference has no evaluator here, so its lessons stay ungated — and so does a run whose feedback,
 * which the analyst reads, states the reference: checking an answer against a value the analyst
 * was shown tests copying, not the fix.
 */
export const referenceEvaluator: FixEvaluator = (trajectory, { fix }) => {
  const { reference } = trajectory;
  if (reference === undefined) return undefined;
  const feedback = trajectory.outcome.feedback;
  if (feedback !== undefined && containsMatch(feedback, reference).match) return undefined;
  return fix.answer !== null && exactMatch(fix.answer, reference).match;
};
