import type { LlmUsage } from '../../core/index.js';
import { type ChatModel, usageOf } from '../../llm/index.js';
import { allProxyGrmRewards, type Combiner, type ProxyGrmTerms } from './proxy-grm-combiners.js';
import { accTerm, proxyTerm, type ShownPosition } from './proxy-grm-terms.js';
import { judgeByProxy, type ProxyOptions, type ProxyOrder } from './proxy-judge.js';
import type { RubricProducer } from './rubric-producer.js';

/** A labelled pair: `chosen` is the better response. */
export interface QualityPair {
  readonly id: string;
  readonly prompt: string;
  readonly chosen: string;
  readonly rejected: string;
}

/** One pair's rubric scored: the terms, every combiner's reward, and what each party said. */
export interface RubricQualityRecord {
  readonly producer: string;
  /** Where the chosen response was shown (1 or 2): the label the terms are scored against. */
  readonly label: ShownPosition;
  readonly rubric: string;
  /** The positions the producer's verdict named. */
  readonly verdict: ReadonlyArray<1 | 2>;
  readonly producer_invalid?: string;
  readonly evaluation: unknown;
  readonly proxy: { readonly prediction: string; readonly orders: ProxyOrder[] };
  readonly terms: ProxyGrmTerms;
  readonly rewards: Record<Combiner, number>;
  /** The proxy's calls got no answer: its term is 0, and it is counted apart, never as wrong. */
  readonly proxy_transport_failure: boolean;
  readonly usage: { readonly producer: LlmUsage; readonly proxy: LlmUsage };
}

/** A pair with no rubric to score: the reason, and whether it was the transport. */
export interface RubricQualityFailure {
  readonly producer: string;
  readonly error: string;
  readonly producer_transport_failure: boolean;
  readonly usage: { readonly producer: LlmUsage };
}

export interface RubricQualityOptions {
  readonly producer: RubricProducer;
  readonly producerModel: ChatModel;
  readonly proxy: Omit<ProxyOptions, 'signal'>;
  /** Show the chosen response first (else second): the caller picks it, seeded per pair. */
  readonly chosenFirst: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Proxy-GRM on one labelled pair: the producer writes its rubric, evaluation and verdict for the
 * pair as shown; the proxy gets the rubric alone (with the request and responses) and predicts the
 * preference. acc scores the producer's verdict, proxy the proxy's prediction, format whether the
 * producer's output was complete; every combiner's reward is kept. A producer with no rubric to
 * show is a failure with its reason, not a score.
 */
export async function scoreRubricQuality(
  pair: QualityPair,
  options: RubricQualityOptions,
): Promise<RubricQualityRecord | RubricQualityFailure> {
  const [first, second] = options.chosenFirst ? [pair.chosen, pair.rejected] : [pair.rejected, pair.chosen];
  const label: ShownPosition = options.chosenFirst ? 1 : 2;
  const signal = options.signal !== undefined ? { signal: options.signal } : {};
  const produced = await options.producer.produce(
    { id: pair.id, prompt: pair.prompt, first, second },
    { model: options.producerModel, ...signal },
  );
  if (produced.status === 'failed')
    return {
      producer: options.producer.name,
      error: produced.reason,
      producer_transport_failure: produced.transport,
      usage: { producer: usageOf(produced.calls) },
    };
  const proxy = await judgeByProxy(
    { rubric: produced.rubric, prompt: pair.prompt, first, second },
    { ...options.proxy, ...signal },
  );
  const terms: ProxyGrmTerms = {
    acc: accTerm(new Set(produced.verdict), label),
    proxy: proxyTerm(proxy.prediction, label),
    format: produced.complete ? 1 : 0,
  };
  return {
    producer: options.producer.name,
    label,
    rubric: produced.rubric,
    verdict: produced.verdict,
    ...(produced.invalid !== undefined && { producer_invalid: produced.invalid }),
    evaluation: produced.evaluation,
    proxy: { prediction: String(proxy.prediction), orders: proxy.orders },
    terms,
    rewards: allProxyGrmRewards(terms),
    proxy_transport_failure: proxy.prediction === 'transport',
    usage: { producer: usageOf(produced.calls), proxy: usageOf(proxy.calls) },
  };
}
