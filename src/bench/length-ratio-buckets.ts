import type { BenchJudgment } from './bench-record.js';

/** Where the length-ratio buckets start: longer / shorter response length. */
export const LENGTH_RATIO_EDGES = [1, 1.25, 1.5, 2, 3] as const;

/** Decided pairs whose longer response is `from` to `to` times as long as the shorter one. */
export interface LengthRatioBucket {
  from: number;
  /** Exclusive; null for the last bucket (no bound, an empty response included). */
  to: number | null;
  /** Decided pairwise judgments (first or second) of unequal lengths in this range. */
  pairs: number;
  /** Share of them where the judge picked the longer response. */
  longer_picked_rate: number | null;
  /** Those of them with a labelled better response (not A=B). */
  labelled: number;
  /** Share of the labelled ones where the better response is the longer one. */
  longer_better_rate: number | null;
}

/**
 * How the judge's verdicts follow length, by how much longer one response is: the share of decided
 * pairs where it picked the longer one, beside the share where the label says the longer one is
 * better. A judge whose first share runs above the second as the ratio grows favours length.
 */
export function lengthRatioBuckets(judgments: readonly BenchJudgment[]): LengthRatioBucket[] {
  const buckets = LENGTH_RATIO_EDGES.map((from, i) => ({
    from,
    to: (LENGTH_RATIO_EDGES[i + 1] as number | undefined) ?? null,
    pairs: 0,
    picked: 0,
    labelled: 0,
    better: 0,
  }));
  for (const j of judgments) {
    if (!j.lengths || (j.verdict !== 'first' && j.verdict !== 'second')) continue;
    const { first, second } = j.lengths;
    if (first === second) continue;
    const longer = first > second ? 'first' : 'second';
    const ratio = Math.max(first, second) / Math.min(first, second);
    const bucket = buckets.findLast((b) => ratio >= b.from) ?? buckets[0];
    if (!bucket) continue;
    bucket.pairs++;
    if (j.verdict === longer) bucket.picked++;
    if (j.better === 'first' || j.better === 'second') {
      bucket.labelled++;
      if (j.better === longer) bucket.better++;
    }
  }
  return buckets.map(({ from, to, pairs, picked, labelled, better }) => ({
    from,
    to,
    pairs,
    longer_picked_rate: pairs > 0 ? picked / pairs : null,
    labelled,
    longer_better_rate: labelled > 0 ? better / labelled : null,
  }));
}
