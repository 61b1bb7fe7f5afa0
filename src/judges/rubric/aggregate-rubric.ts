import type { RubricAggregate } from './rubric-schema.js';

/** One criterion's normalized grade in [0, 1] and its weight (1 where the rubric gives none). */
export interface WeightedGrade {
  readonly value: number;
  readonly weight: number;
}

/**
 * The rubric's score from its criteria's normalized grades, in [0, 1]:
 * - `weighted_mean` and `share`: Σ wᵢ·vᵢ / Σ wᵢ (a checklist's grades are 0 or 1, so this is
 *   the weighted share of items met);
 * - `min`: the lowest grade;
 * - `all_must_pass`: 1 when every grade is at or above `passAt`, else 0.
 */
export function aggregateRubric(
  grades: readonly WeightedGrade[],
  aggregate: RubricAggregate,
  passAt: number,
): number {
  if (grades.length === 0) throw new Error('aggregateRubric: no grades');
  switch (aggregate) {
    case 'weighted_mean':
    case 'share': {
      const total = grades.reduce((s, g) => s + g.weight, 0);
      return grades.reduce((s, g) => s + g.weight * g.value, 0) / total;
    }
    case 'min':
      return Math.min(...grades.map((g) => g.value));
    case 'all_must_pass':
      return grades.every((g) => g.value >= passAt) ? 1 : 0;
  }
}

/** How the votes on one criterion become its grade. */
export type VoteRule = 'majority' | 'mean';

/**
 * One criterion's grade from its readable votes (normalized values): `mean` averages them;
 * `majority` takes the most frequent value, and on a tie the lowest of the tied values, so that
 * a split panel never rounds a response up.
 */
export function combineVotes(values: readonly number[], rule: VoteRule): number {
  if (values.length === 0) throw new Error('combineVotes: no votes');
  if (rule === 'mean') return values.reduce((s, v) => s + v, 0) / values.length;
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = Number.POSITIVE_INFINITY;
  let bestCount = 0;
  for (const [v, n] of counts) {
    if (n > bestCount || (n === bestCount && v < best)) {
      best = v;
      bestCount = n;
    }
  }
  return best;
}
