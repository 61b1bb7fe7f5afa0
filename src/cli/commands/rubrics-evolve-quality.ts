import { itemRng } from '../../bench/item-rng.js';
import { mapConcurrent, RewardKitError } from '../../core/index.js';
import type { FitnessQuality } from '../../judges/meta-rubric-evolution/index.js';
import type { OpenrsFiles } from '../../judges/openrs/index.js';
import { openrsRubricProducer, scoreRubricQuality } from '../../judges/proxy-grm/index.js';
import type { ChatModel } from '../../llm/index.js';

export interface ProxyQualityOptions {
  readonly weight: number;
  /** The judge that writes each variant's rubrics (the evolution's judge). */
  readonly producer: ChatModel;
  readonly proxy: ChatModel;
  readonly files: OpenrsFiles;
  readonly reasks: number;
  readonly concurrency: number;
  readonly seed: number;
}

/**
 * Proxy-GRM rubric quality as the evolution's extra fitness term: under a variant, OpenRS writes
 * each training pair's adaptive rubric, a proxy shown only that rubric predicts the preference, and
 * the term is the proxy's mean (+1 right, −1 wrong) over the pairs whose calls got an answer. A
 * pair whose producer answered but wrote no readable rubric under the variant counts −1: the
 * variant broke the producer, which is evidence against it. A transport failure (of the producer
 * or the proxy) is no evidence about the rubric, so it is left out; with none left the term cannot
 * be measured and the run stops rather than add a 0.
 */
export function proxyQuality(options: ProxyQualityOptions): FitnessQuality {
  return {
    weight: options.weight,
    async score(metaRubric, pairs, signal) {
      const producer = openrsRubricProducer({ ...options.files, metaRubric });
      const records = await mapConcurrent(pairs, options.concurrency, (pair) =>
        scoreRubricQuality(pair, {
          producer,
          producerModel: options.producer,
          proxy: { model: options.proxy, reasks: options.reasks },
          // The chosen response's position, seeded per pair id as `rubrics quality` does.
          chosenFirst: itemRng(options.seed, pair.id).next() < 0.5,
          ...(signal && { signal }),
        }),
      );
      const measured = records.flatMap((r) => {
        if ('error' in r) return r.producer_transport_failure ? [] : [-1];
        return r.proxy_transport_failure ? [] : [r.terms.proxy];
      });
      if (measured.length === 0)
        throw new RewardKitError(
          'RK_BACKEND_UNAVAILABLE',
          `rubric quality: no training pair got a rubric and a proxy answer (${records.length} tried)`,
        );
      return measured.reduce((sum: number, x) => sum + x, 0) / measured.length;
    },
  };
}
