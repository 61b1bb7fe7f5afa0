import { judgeRubric, type Rubric, rubricItems } from '../rubric/index.js';
import { gradedVerdict } from './graded-verdict.js';
import type { ProducedRubric, RubricProducer } from './rubric-producer.js';

/** A rubric as the text a proxy reads: its mode, each criterion with its weight and description, a Likert scale's anchors. */
export function rubricJudgeText(rubric: Rubric): string {
  return [
    `Mode: ${rubric.mode}`,
    ...rubricItems(rubric).map((item) => `- ${item.name} (weight ${item.weight}): ${item.description}`),
    ...(rubric.mode === 'likert'
      ? ['Scale:', ...Object.entries(rubric.anchors).map(([point, anchor]) => `  ${point}: ${anchor}`)]
      : []),
  ].join('\n');
}

/**
 * The general rubric judge (`kind: rubric`) as a rubric producer: the user's rubric, the same for
 * every pair, is what the proxy reads; the producer model grades each response against it and the
 * higher score (aggregated in code) is the verdict, equal scores a tie. The graded criteria are its
 * evaluation. Proxy accuracy then says how much the rubric alone carries the labelled preference.
 */
export function rubricJudgeProducer(rubric: Rubric): RubricProducer {
  const text = rubricJudgeText(rubric);
  return {
    name: 'rubric',
    async produce(pair, options): Promise<ProducedRubric> {
      return gradedVerdict(
        text,
        pair,
        options,
        (response, model, signal) =>
          judgeRubric({ prompt: pair.prompt, response, rubric }, { model, ...(signal && { signal }) }),
        (first, second) => ({
          scores: [first.score, second.score],
          criteria: [first.criteria, second.criteria],
        }),
      );
    },
  };
}
