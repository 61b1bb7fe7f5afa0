import type { BenchJudgment } from './bench-record.js';
import { type LengthRatioBucket, lengthRatioBuckets } from './length-ratio-buckets.js';
import { pearson } from './pearson.js';

/** What every benchmark report says about the judge itself, whatever the benchmark's own metric. */
export interface JudgeMetrics {
  judgments: number;
  /** Share of pairs judged in both orders whose readable comparisons all name the same winner. */
  position_consistency: number | null;
  /** Pairs that had a readable comparison in each order. */
  position_consistency_pairs: number;
  /** Share of judgments that ended in a tie (pairwise ties and inconsistent orders; a shared top rating). */
  tie_rate: number | null;
  /** Share of pairwise judgments whose orders disagreed (part of the tie rate). */
  inconsistent_rate: number | null;
  /** Share of judgments with no readable verdict. */
  invalid_rate: number | null;
  length: {
    /** Pearson between the verdict (+1 first, −1 second) and len(first) − len(second), over decided pairs. */
    pearson: number | null;
    /** Share of decided pairs of unequal length where the judge picked the longer response. */
    longer_preferred_rate: number | null;
    /** Decided pairwise judgments with lengths. */
    pairs: number;
    /** The longer-picked share beside the longer-better share, by how much longer (see lengthRatioBuckets). */
    by_ratio: LengthRatioBucket[];
  };
  calls_per_judgment: number | null;
  prompt_tokens_per_judgment: number | null;
  completion_tokens_per_judgment: number | null;
}

const rate = (n: number, d: number) => (d > 0 ? n / d : null);

/** Position consistency for one judgment: undefined unless both orders have a readable comparison. */
function consistentAcrossOrders(j: BenchJudgment): boolean | undefined {
  const readable = (j.comparisons ?? []).filter((c) => c.winner !== undefined);
  const orders = new Set(readable.map((c) => c.order));
  if (orders.size < 2) return undefined;
  return new Set(readable.map((c) => c.winner)).size === 1;
}

/**
 * The judge metrics over every judgment of a run: position consistency, tie, inconsistent and
 * invalid rates, how verdicts follow length, and calls and tokens per judgment.
 */
export function judgeMetrics(judgments: readonly BenchJudgment[]): JudgeMetrics {
  const n = judgments.length;
  let pairs = 0;
  let consistent = 0;
  const verdictSign: number[] = [];
  const lengthDiff: number[] = [];
  let unequal = 0;
  let longer = 0;
  let pairwise = 0;
  let inconsistent = 0;
  for (const j of judgments) {
    const c = consistentAcrossOrders(j);
    if (c !== undefined) {
      pairs++;
      if (c) consistent++;
    }
    if (j.kind === 'pairwise') {
      pairwise++;
      if (j.verdict === 'inconsistent') inconsistent++;
    }
    if (j.lengths && (j.verdict === 'first' || j.verdict === 'second')) {
      const sign = j.verdict === 'first' ? 1 : -1;
      const diff = j.lengths.first - j.lengths.second;
      verdictSign.push(sign);
      lengthDiff.push(diff);
      if (diff !== 0) {
        unequal++;
        if (Math.sign(diff) === sign) longer++;
      }
    }
  }
  const sum = (f: (j: BenchJudgment) => number) => judgments.reduce((a, j) => a + f(j), 0);
  return {
    judgments: n,
    position_consistency: rate(consistent, pairs),
    position_consistency_pairs: pairs,
    tie_rate: rate(judgments.filter((j) => j.outcome === 'tie').length, n),
    inconsistent_rate: rate(inconsistent, pairwise),
    invalid_rate: rate(judgments.filter((j) => j.outcome === 'invalid').length, n),
    length: {
      pearson: pearson(verdictSign, lengthDiff),
      longer_preferred_rate: rate(longer, unequal),
      pairs: verdictSign.length,
      by_ratio: lengthRatioBuckets(judgments),
    },
    calls_per_judgment: rate(
      sum((j) => j.usage.calls),
      n,
    ),
    prompt_tokens_per_judgment: rate(
      sum((j) => j.usage.prompt_tokens),
      n,
    ),
    completion_tokens_per_judgment: rate(
      sum((j) => j.usage.completion_tokens),
      n,
    ),
  };
}
