import {
  judgeMedicalRubric,
  type MedicalRubric,
  type MedicalRubricFile,
  rubricFor,
} from '../medical/index.js';
import type { ProducedRubric, RubricProducer } from './rubric-producer.js';
import { watchTransport } from './transport-watch.js';

const levelsText = (levels: Record<string, string>) =>
  Object.entries(levels)
    .map(([grade, text]) => `${grade.replace('_', ' ')}: ${text}`)
    .join('; ');

/** A QuarkMedBench rubric as the text a proxy reads: the four sections, each criterion with its weight and graded descriptions. */
export function medicalRubricText(rubric: MedicalRubric): string {
  const section = (
    title: string,
    criteria: ReadonlyArray<{ title: string; weight: number; levels: Record<string, string> }>,
  ) =>
    criteria.length === 0
      ? []
      : [`## ${title}`, ...criteria.map((c) => `- ${c.title} (weight ${c.weight}): ${levelsText(c.levels)}`)];
  return [
    ...section('Essential', rubric.essential),
    ...section('Important', rubric.important),
    ...section('Highlight', rubric.highlight),
    ...section('Pitfall (deducted)', rubric.pitfall),
  ].join('\n');
}

/**
 * QuarkMedBench rubrics as a rubric producer: the pair's rubric comes from a rubric file, by the
 * pair's id (`rubrics generate` writes them); the producer model grades each response against it
 * and the higher score (computed in code) is the verdict, equal scores a tie. The grades are its
 * evaluation.
 */
export function medicalRubricProducer(rubrics: MedicalRubricFile): RubricProducer {
  return {
    name: 'medical',
    async produce(pair, options): Promise<ProducedRubric> {
      const found = rubricFor(rubrics, pair.id);
      if ('error' in found) return { status: 'failed', reason: found.error, transport: false, calls: [] };
      const rubric = found.rubric;
      const watch = watchTransport(options.model);
      const grade = (response: string) =>
        judgeMedicalRubric(
          { query: pair.prompt, response, rubric },
          { model: watch.model, ...(options.signal !== undefined && { signal: options.signal }) },
        );
      const first = await grade(pair.first);
      const second = await grade(pair.second);
      const calls = [...first.calls, ...second.calls];
      const text = medicalRubricText(rubric);
      if (first.status === 'invalid' || second.status === 'invalid') {
        const reasons = [first, second].flatMap((g, i) =>
          g.status === 'invalid' ? [`response ${i + 1}: ${g.reason}`] : [],
        );
        if (watch.failures.length > 0)
          return { status: 'failed', reason: reasons.join('; '), transport: true, calls };
        return {
          status: 'ok',
          rubric: text,
          evaluation: null,
          verdict: [],
          complete: false,
          invalid: reasons.join('; '),
          calls,
        };
      }
      const verdict: Array<1 | 2> =
        first.score > second.score ? [1] : second.score > first.score ? [2] : [1, 2];
      return {
        status: 'ok',
        rubric: text,
        evaluation: { scores: [first.score, second.score], grades: [first.grades, second.grades] },
        verdict,
        complete: true,
        calls,
      };
    },
  };
}
