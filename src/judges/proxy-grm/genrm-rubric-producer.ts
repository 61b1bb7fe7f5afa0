import { judgeGenrm } from '../genrm-judge.js';
import { type ProducedRubric, type RubricProducer, verdictPositions } from './rubric-producer.js';
import { watchTransport } from './transport-watch.js';

/**
 * The Writing-Zero GenRM as a rubric producer: its query-specific principles (from the order that
 * shows the pair as given) are the rubric; the critiques and scores are its evaluation, and its
 * both-orders verdict is the verdict.
 */
export const genrmRubricProducer: RubricProducer = {
  name: 'genrm',
  async produce(pair, options): Promise<ProducedRubric> {
    const watch = watchTransport(options.model);
    const judgment = await judgeGenrm(pair, {
      model: watch.model,
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    const forward = judgment.comparisons.find((c) => c.order === 'forward' && c.output !== undefined);
    if (forward?.output === undefined) {
      const reason = judgment.comparisons.map((c) => c.invalid).join('; ');
      return { status: 'failed', reason, transport: watch.failures.length > 0, calls: judgment.calls };
    }
    const readable = judgment.comparisons.every((c) => c.output !== undefined);
    return {
      status: 'ok',
      rubric: forward.output.principles.map((p) => `- ${p}`).join('\n'),
      evaluation: judgment.comparisons.map((c) =>
        c.output
          ? {
              order: c.order,
              critique: c.output.critique,
              score_1: c.output.score_1,
              score_2: c.output.score_2,
            }
          : { order: c.order, invalid: c.invalid },
      ),
      verdict: verdictPositions(judgment.verdict),
      complete: readable,
      ...(!readable && {
        invalid: judgment.comparisons
          .map((c) => c.invalid)
          .filter(Boolean)
          .join('; '),
      }),
      calls: judgment.calls,
    };
  },
};
