/** What cross-verification concluded about one checklist point. */
export interface KeyPointCheck {
  id: string;
  /** How many answers contradict the point (not merely omit it). */
  contradictedBy: number;
  /** The writer's own reading of whether the point is medically correct. */
  correct: 'yes' | 'no' | 'uncertain';
  /** How the point relates to the reference answer, when the query has one. */
  reference: 'agrees' | 'contradicts' | 'not_covered' | 'no_reference';
  /** How the retrieved passages bear on the point; absent when no evidence was retrieved. */
  evidence?: 'supports' | 'contradicts' | 'not_covered';
}

/** Why a query's rubric needs a human before use. */
export interface ReviewReason {
  code:
    | 'too_few_answers'
    | 'low_agreement'
    | 'contradiction'
    | 'doubtful_point'
    | 'reference_conflict'
    | 'evidence_conflict';
  message: string;
}

/**
 * Said with an agreement reason when no evidence index was given: the method sends low-agreement
 * queries to retrieval before human review, and this one skipped it.
 */
export const NO_RETRIEVAL_NOTE =
  'no evidence was retrieved (rubrics generate --index or --retriever-url), so this goes straight to human review';

/** What an agreement reason adds: where the reviewer finds the evidence, or that there is none. */
function evidenceNote(retrieved: number | undefined): string {
  if (retrieved === undefined) return NO_RETRIEVAL_NOTE;
  if (retrieved === 0) return 'the evidence index found no passage for this query';
  return `${retrieved} retrieved passage(s) were checked against the key points and are in the notes`;
}

/**
 * The reasons a generated rubric must be reviewed, decided in code from the counted agreement and
 * the structured cross-verification. An empty list means none of the checks fired.
 */
export function reviewReasons(input: {
  answers: number;
  agreement: number | undefined;
  threshold: number;
  checks: readonly KeyPointCheck[];
  /** How many passages were retrieved for the query; undefined when retrieval was not used. */
  retrieved?: number;
}): ReviewReason[] {
  const note = evidenceNote(input.retrieved);
  const reasons: ReviewReason[] = [];
  const ids = (keep: (c: KeyPointCheck) => boolean) =>
    input.checks
      .filter(keep)
      .map((c) => c.id)
      .join(', ');
  if (input.answers < 2) {
    reasons.push({
      code: 'too_few_answers',
      message: `only ${input.answers} answer(s) to compare, so agreement cannot be measured; ${note}`,
    });
  } else if (input.agreement === undefined) {
    reasons.push({
      code: 'low_agreement',
      message: `the answers state no key points to compare; ${note}`,
    });
  } else if (input.agreement < input.threshold) {
    reasons.push({
      code: 'low_agreement',
      message: `agreement ${input.agreement.toFixed(3)} is below the threshold ${input.threshold}; ${note}`,
    });
  }
  const contradicted = ids((c) => c.contradictedBy > 0);
  if (contradicted) {
    reasons.push({ code: 'contradiction', message: `answers contradict each other on ${contradicted}` });
  }
  const doubtful = ids((c) => c.correct !== 'yes');
  if (doubtful) {
    reasons.push({ code: 'doubtful_point', message: `the writer doubts the correctness of ${doubtful}` });
  }
  const conflicting = ids((c) => c.reference === 'contradicts');
  if (conflicting) {
    reasons.push({ code: 'reference_conflict', message: `the reference answer contradicts ${conflicting}` });
  }
  // A point the writer judged wrong agrees with evidence against it: only the others conflict.
  const refuted = ids((c) => c.evidence === 'contradicts' && c.correct !== 'no');
  if (refuted) {
    reasons.push({ code: 'evidence_conflict', message: `the retrieved evidence contradicts ${refuted}` });
  }
  return reasons;
}
