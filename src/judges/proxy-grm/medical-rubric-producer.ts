import {
  judgeMedicalRubric,
  type MedicalRubric,
  type MedicalRubricFile,
  rubricFor,
} from '../medical/index.js';
import { gradedVerdict } from './graded-verdict.js';
import type { ProducedRubric, RubricProducer } from './rubric-producer.js';

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
      const { rubric } = found;
      return gradedVerdict(
        medicalRubricText(rubric),
        pair,
        options,
        (response, model, signal) =>
          judgeMedicalRubric({ query: pair.prompt, response, rubric }, { model, ...(signal && { signal }) }),
        (first, second) => ({ scores: [first.score, second.score], grades: [first.grades, second.grades] }),
      );
    },
  };
}
