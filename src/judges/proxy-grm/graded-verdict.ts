import type { CallTrace, ChatModel } from '../../llm/index.js';
import type { ProducedRubric, ProduceOptions, ShownPair } from './rubric-producer.js';
import { watchTransport } from './transport-watch.js';

/** A pointwise grading of one response: its score, or why none could be read. */
export type Grading =
  | { readonly status: 'ok'; readonly score: number; readonly calls: CallTrace[] }
  | { readonly status: 'invalid'; readonly reason: string; readonly calls: CallTrace[] };

/**
 * A pointwise rubric judge as a producer's verdict: each response graded against the rubric, the
 * higher score (computed in code) the verdict, equal scores a tie. A grading that got no answer
 * makes a transport failure; one that could not be read leaves the verdict empty, with the reason.
 */
export async function gradedVerdict<G extends Grading>(
  rubric: string,
  pair: ShownPair,
  options: ProduceOptions,
  grade: (response: string, model: ChatModel, signal?: AbortSignal) => Promise<G>,
  evaluation: (first: Extract<G, { status: 'ok' }>, second: Extract<G, { status: 'ok' }>) => unknown,
): Promise<ProducedRubric> {
  const watch = watchTransport(options.model);
  const first = await grade(pair.first, watch.model, options.signal);
  const second = await grade(pair.second, watch.model, options.signal);
  const calls = [...first.calls, ...second.calls];
  if (first.status === 'invalid' || second.status === 'invalid') {
    const reasons = [first, second].flatMap((g, i) =>
      g.status === 'invalid' ? [`response ${i + 1}: ${g.reason}`] : [],
    );
    if (watch.failures.length > 0)
      return { status: 'failed', reason: reasons.join('; '), transport: true, calls };
    return {
      status: 'ok',
      rubric,
      evaluation: null,
      verdict: [],
      complete: false,
      invalid: reasons.join('; '),
      calls,
    };
  }
  const [a, b] = [first as Extract<G, { status: 'ok' }>, second as Extract<G, { status: 'ok' }>];
  const verdict: Array<1 | 2> = a.score > b.score ? [1] : b.score > a.score ? [2] : [1, 2];
  return { status: 'ok', rubric, evaluation: evaluation(a, b), verdict, complete: true, calls };
}
