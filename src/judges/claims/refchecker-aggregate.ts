/** A claim's RefChecker label against the documents. */
export type RefcheckerLabel = 'entailment' | 'neutral' | 'contradiction';

/** How RefChecker turns claim labels into one for the response. */
export type RefcheckerMode = 'strict' | 'soft' | 'majority';

export interface RefcheckerAggregate {
  /** The response's label (for `soft`, the most frequent one). */
  readonly label: RefcheckerLabel;
  /** Each label's share of the claims. */
  readonly shares: Readonly<Record<RefcheckerLabel, number>>;
  /** strict and majority: 1 when the label is entailment, else 0; soft: the entailment share. */
  readonly score: number;
}

// Where counts tie, the more damning label wins: a reward must not round a doubt up.
const SEVERITY: readonly RefcheckerLabel[] = ['contradiction', 'neutral', 'entailment'];

/**
 * RefChecker's response-level aggregations: strict (any contradiction makes the response a
 * contradiction, else any neutral claim makes it neutral), soft (the share of each label) and
 * majority (the most frequent label, ties to the more severe). Undefined for no claims.
 */
export function refcheckerAggregate(
  labels: readonly RefcheckerLabel[],
  mode: RefcheckerMode,
): RefcheckerAggregate | undefined {
  if (labels.length === 0) return undefined;
  const count = (l: RefcheckerLabel) => labels.filter((x) => x === l).length;
  const shares = {
    entailment: count('entailment') / labels.length,
    neutral: count('neutral') / labels.length,
    contradiction: count('contradiction') / labels.length,
  };
  const mostFrequent = SEVERITY.reduce((best, l) => (shares[l] > shares[best] ? l : best));
  if (mode === 'soft') return { label: mostFrequent, shares, score: shares.entailment };
  const label = mode === 'majority' ? mostFrequent : (SEVERITY.find((l) => shares[l] > 0) as RefcheckerLabel);
  return { label, shares, score: label === 'entailment' ? 1 : 0 };
}
