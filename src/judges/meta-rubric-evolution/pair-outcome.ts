import { z } from 'zod';
import type { ChatModel } from '../../llm/index.js';
import type { DomainPool } from '../openrs/domain-pool.js';
import type { MetaRubric } from '../openrs/meta-rubric.js';
import { judgeOpenrs } from '../openrs/openrs-judge.js';
import type { LabelledPair } from './labelled-pair.js';

/**
 * How the judge did on one labelled pair. `right` only when both orders agreed with the label;
 * `wrong` when they agreed against it or disagreed with each other; `tie` when neither order saw
 * a difference; `failed` when the judge gave no readable verdict, which is neither right nor wrong.
 */
export const PairOutcomeSchema = z.object({
  id: z.string(),
  outcome: z.enum(['right', 'wrong', 'tie', 'failed']),
  /** The combined verdict with `chosen` as the first response. */
  verdict: z.enum(['first', 'second', 'tie', 'inconsistent', 'invalid']),
  reason: z.string().optional(),
});
export type PairOutcome = z.infer<typeof PairOutcomeSchema>;

export interface PairJudgeOptions {
  model: ChatModel;
  domains: ReadonlyMap<string, DomainPool>;
  reasks?: number;
  signal?: AbortSignal;
}

const OUTCOME = {
  first: 'right',
  second: 'wrong',
  inconsistent: 'wrong',
  tie: 'tie',
  invalid: 'failed',
} as const;

/**
 * OpenRS under `metaRubric` on one labelled pair, in both orders with the symmetric rule, so a
 * judge that prefers a position cannot be right by it. A judge that throws (a transport fault
 * after its retries) fails the pair; an abort is passed on.
 */
export async function judgeLabelledPair(
  pair: LabelledPair,
  metaRubric: MetaRubric,
  options: PairJudgeOptions,
): Promise<PairOutcome> {
  try {
    const judgment = await judgeOpenrs(
      { prompt: pair.prompt, first: pair.chosen, second: pair.rejected },
      {
        model: options.model,
        files: { metaRubric, domains: options.domains },
        bothOrders: true,
        ...(options.reasks !== undefined && { reasks: options.reasks }),
        ...(options.signal !== undefined && { signal: options.signal }),
      },
    );
    return {
      id: pair.id,
      outcome: OUTCOME[judgment.verdict],
      verdict: judgment.verdict,
      ...(judgment.reason !== undefined && { reason: judgment.reason }),
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { id: pair.id, outcome: 'failed', verdict: 'invalid', reason: (error as Error).message };
  }
}
