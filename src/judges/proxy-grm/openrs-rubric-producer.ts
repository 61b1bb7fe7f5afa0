import { judgeOpenrs, loadOpenrsFiles, type OpenrsFiles } from '../openrs/index.js';
import { type ProducedRubric, type RubricProducer, verdictPositions } from './rubric-producer.js';
import { watchTransport } from './transport-watch.js';

/**
 * OpenRS's adaptive rubric as a rubric producer: the criteria it wrote for the pair (name, type,
 * hard-flaw dimension) in the order that shows the pair as given are the rubric; the evidence,
 * reasons, winners and strengths are its evaluation, and the symmetric both-orders verdict is the
 * verdict. The critical differences it listed stay out of the rubric: they describe the responses,
 * and may already say which is better.
 */
export function openrsRubricProducer(files: OpenrsFiles = loadOpenrsFiles({})): RubricProducer {
  return {
    name: 'openrs',
    async produce(pair, options): Promise<ProducedRubric> {
      const watch = watchTransport(options.model);
      const judgment = await judgeOpenrs(pair, {
        model: watch.model,
        files,
        ...(options.signal !== undefined && { signal: options.signal }),
      });
      const forward = judgment.detail.orders.find((o) => o.order === 'forward' && o.output !== undefined);
      if (forward?.output === undefined) {
        const reason = judgment.reason ?? 'no readable comparison';
        return { status: 'failed', reason, transport: watch.failures.length > 0, calls: judgment.calls };
      }
      const readable = judgment.verdict !== 'invalid';
      return {
        status: 'ok',
        rubric: forward.output.criteria
          .map((c) => `- [${c.type}${c.dimension ? `: ${c.dimension}` : ''}] ${c.name}`)
          .join('\n'),
        evaluation: judgment.detail.orders,
        verdict: verdictPositions(judgment.verdict),
        complete: readable,
        ...(!readable && judgment.reason !== undefined && { invalid: judgment.reason }),
        calls: judgment.calls,
      };
    },
  };
}
