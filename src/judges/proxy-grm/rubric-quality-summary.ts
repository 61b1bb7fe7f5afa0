import { bootstrapMeanInterval } from '../../core/bootstrap-mean.js';
import { addUsageTotals, type UsageTotals } from '../../core/index.js';
import { COMBINERS, type Combiner } from './proxy-grm-combiners.js';
import type { RubricQualityFailure, RubricQualityRecord } from './rubric-quality.js';

/** A mean with its 95% percentile bootstrap interval, over `n` values; null mean when n is 0. */
export interface MeanWithInterval {
  readonly mean: number | null;
  readonly ci95: [number, number] | null;
  readonly n: number;
}

export interface RubricQualitySummary {
  readonly pairs: number;
  /** Pairs whose rubric was scored. */
  readonly scored: number;
  /** Pairs with no rubric to score, and how many of those were transport failures of the producer. */
  readonly failed: number;
  readonly producer_transport_failures: number;
  /** Scored pairs whose proxy got no answer: left out of the proxy's accuracy, never counted wrong. */
  readonly proxy_transport_failures: number;
  /** The producer's verdict named the label alone (acc = +1). */
  readonly producer_accuracy: MeanWithInterval;
  /** The proxy predicted the label from the rubric alone (proxy = +1), over pairs it answered: the rubric's quality. */
  readonly proxy_accuracy: MeanWithInterval;
  readonly format_rate: MeanWithInterval;
  readonly rewards: Record<Combiner, MeanWithInterval>;
  readonly usage: { readonly producer: UsageTotals; readonly proxy: UsageTotals };
}

const meanOf = (values: readonly number[], seed: number): MeanWithInterval =>
  values.length === 0
    ? { mean: null, ci95: null, n: 0 }
    : {
        mean: values.reduce((a, b) => a + b, 0) / values.length,
        ci95: bootstrapMeanInterval(values, { seed }),
        n: values.length,
      };

const zero = (): UsageTotals => ({ calls: 0, prompt_tokens: 0, completion_tokens: 0, cache_hits: 0 });

/**
 * The aggregate over a run's records: the producer's and the proxy's accuracy, the format rate
 * and each combiner's mean reward, each with a bootstrap interval (seeded: the same records give
 * the same intervals); failures and transport failures counted apart.
 */
export function summarizeRubricQuality(
  records: ReadonlyArray<RubricQualityRecord | RubricQualityFailure>,
  seed = 0,
): RubricQualitySummary {
  const scored = records.filter((r): r is RubricQualityRecord => !('error' in r));
  const failed = records.filter((r): r is RubricQualityFailure => 'error' in r);
  const answered = scored.filter((r) => !r.proxy_transport_failure);
  const producer = zero();
  const proxy = zero();
  for (const r of records) addUsageTotals(producer, r.usage.producer);
  for (const r of scored) addUsageTotals(proxy, r.usage.proxy);
  return {
    pairs: records.length,
    scored: scored.length,
    failed: failed.length,
    producer_transport_failures: failed.filter((r) => r.producer_transport_failure).length,
    proxy_transport_failures: scored.length - answered.length,
    producer_accuracy: meanOf(
      scored.map((r) => (r.terms.acc === 1 ? 1 : 0)),
      seed,
    ),
    proxy_accuracy: meanOf(
      answered.map((r) => (r.terms.proxy === 1 ? 1 : 0)),
      seed,
    ),
    format_rate: meanOf(
      scored.map((r) => r.terms.format),
      seed,
    ),
    rewards: Object.fromEntries(
      COMBINERS.map((c) => [
        c,
        meanOf(
          scored.map((r) => r.rewards[c]),
          seed,
        ),
      ]),
    ) as Record<Combiner, MeanWithInterval>,
    usage: { producer, proxy },
  };
}
