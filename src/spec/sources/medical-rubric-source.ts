import { z } from 'zod';
import { RewardKitError } from '../../core/index.js';
import { finalQuestion } from '../../judges/medical/final-question.js';
import type { MedicalRubric, MedicalScoringOptions } from '../../judges/medical/index.js';
import { inlineMedicalRubric } from '../../judges/medical/inline-medical-rubric.js';
import {
  loadMedicalRubrics,
  rubricFileProblems,
  rubricFor,
} from '../../judges/medical/read-medical-rubrics.js';
import { judgeCallsOf } from '../../llm/judge-call-of.js';
import { usageOf } from '../../llm/usage-of.js';
import { defineJudgeKind } from '../judge-kind.js';
import { SourceFailedError } from '../source-failed-error.js';
import { medicalRubricRows } from './medical-rubric-rows.js';
import { onFirstUse } from './on-first-use.js';

const loadJudge = onFirstUse(() => import('../../judges/medical/judge-medical-rubric.js'));

const params = z.strictObject({
  model: z
    .string()
    .min(1)
    .meta({ placeholder: 'name', short: '-m' })
    .describe('the judge: a model name from the models file'),
  rubrics: z
    .string()
    .min(1)
    .meta({ placeholder: 'file' })
    .optional()
    .describe('a rubric file (JSONL, JSON or YAML) keyed by sample id, for samples without metadata.rubric'),
  reasks: z.number().int().nonnegative().default(2).describe('re-asks after unreadable output'),
  temperature: z.number().min(0).max(2).optional().describe('sampling temperature of the judge'),
  weights: z
    .strictObject({
      essential: z.number().positive().optional().describe('weight of the Essential section (default 2)'),
      important: z.number().nonnegative().optional().describe('weight of the Important section (default 1)'),
      highlight: z.number().nonnegative().optional().describe('weight of the Highlight section (default 1)'),
      pitfall: z.number().nonnegative().optional().describe('weight of the Pitfall section (default 2)'),
    })
    .optional()
    .describe('section weights (each optional; the defaults are 2, 1, 1, 2)'),
  truncation: z
    .union([
      z.boolean(),
      z.strictObject({
        essential_ratio: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe('truncate when Essential credit < r × its max (default 0.5)'),
        pitfall_ratio: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe('truncate when the pitfall deduction > r × its max (default 0.5)'),
      }),
    ])
    .default(true)
    .describe('zero Important/Highlight credit when the essentials fail or the pitfalls dominate'),
  saturation: z
    .union([
      z.boolean(),
      z.strictObject({
        criterion_cap: z
          .number()
          .positive()
          .max(1)
          .optional()
          .describe('each Important/Highlight grade counts at most this much (default 1)'),
        essential_multiple: z
          .number()
          .nonnegative()
          .optional()
          .describe('Important + Highlight credit at most m × Essential credit (default 2)'),
      }),
    ])
    .default(true)
    .describe('cap Important/Highlight credit'),
  pass_at: z.number().min(0).max(1).default(0.5).describe('the verdict is pass at or above this score'),
});
type Params = z.output<typeof params>;

/** The judge's scoring options from the params (`judge medical_rubric --bench-rows` reads the same params). */
export function medicalScoringOptions(
  p: Pick<Params, 'weights' | 'truncation' | 'saturation'>,
): MedicalScoringOptions {
  const t = p.truncation;
  const s = p.saturation;
  return {
    ...(p.weights && { weights: p.weights }),
    truncation:
      t === false
        ? false
        : t === true
          ? {}
          : {
              ...(t.essential_ratio !== undefined && { essentialRatio: t.essential_ratio }),
              ...(t.pitfall_ratio !== undefined && { pitfallRatio: t.pitfall_ratio }),
            },
    saturation:
      s === false
        ? false
        : s === true
          ? {}
          : {
              ...(s.criterion_cap !== undefined && { criterionCap: s.criterion_cap }),
              ...(s.essential_multiple !== undefined && { essentialMultiple: s.essential_multiple }),
            },
  };
}

/**
 * The rubric a sample is graded against: its inline rubric (`field` names where it sits), else the
 * one with its id in the rubric file (`fileFlag` names how that file is given); otherwise an error
 * naming both, so the sample fails with the reason. `judge medical_rubric --bench-rows` and the spec share it.
 */
export function medicalRubricOf(
  row: { id: string; query: string; inline: unknown; field: string },
  fromFile: ReturnType<typeof loadMedicalRubrics> | undefined,
  fileFlag: string,
): { rubric: MedicalRubric; from: 'inline' | 'file' } {
  if (row.inline !== undefined) {
    return {
      rubric: inlineMedicalRubric(row.inline, { id: row.id, query: row.query }, row.field),
      from: 'inline',
    };
  }
  if (fromFile === undefined) {
    throw new RewardKitError(
      'RK_SOURCE_FAILED',
      `sample "${row.id}" has no rubric: put one in ${row.field} or name a rubric file in ${fileFlag}`,
    );
  }
  const found = rubricFor(fromFile, row.id);
  if ('error' in found)
    throw new RewardKitError('RK_SOURCE_FAILED', `${found.error} (and none in ${row.field})`);
  return { rubric: found.rubric, from: 'file' };
}

/** The response graded against its QuarkMedBench rubric (from `metadata.rubric` or the rubric file). */
export const medicalRubricSource = defineJudgeKind({
  kind: 'medical_rubric',
  description:
    'QuarkMedBench rubric judge: an LLM grades each Essential/Important/Highlight/Pitfall criterion, scored in code into [0, 1]',
  params,
  create: (p) => {
    // Read once, when the spec is compiled. A file that cannot be read stops the run; a rubric that
    // fails its schema fails only the samples it belongs to, with its file:line:field problems.
    const fromFile = p.rubrics === undefined ? undefined : loadMedicalRubrics(p.rubrics);
    const scoring = medicalScoringOptions(p);
    return async (sample, { services, signal }) => {
      // A multi-turn session: the last user turn is the question, the other turns its context.
      const { query, context } = finalQuestion(sample.prompt);
      const { rubric, from } = medicalRubricOf(
        { id: sample.id, query, inline: sample.metadata.rubric, field: 'metadata.rubric' },
        fromFile,
        'params.rubrics (--rubrics)',
      );
      const { judgeMedicalRubric } = await loadJudge();
      const judgment = await judgeMedicalRubric(
        { query: query === '' ? rubric.query : query, response: sample.response, rubric, context },
        {
          model: services.model(p.model),
          reasks: p.reasks,
          scoring,
          signal,
          ...(p.temperature !== undefined && { temperature: p.temperature }),
        },
      );
      const usage = usageOf(judgment.calls);
      const calls = judgeCallsOf(judgment.calls);
      // The calls go to the evidence's own `calls`, not again in the detail.
      const { calls: _traces, ...graded } = judgment;
      const detail = { rubric_id: rubric.id, rubric_from: from, ...graded };
      if (judgment.status === 'invalid') {
        throw new SourceFailedError(`the judge gave no readable grading: ${judgment.reason}`, {
          detail,
          usage,
          calls,
        });
      }
      const b = judgment.breakdown;
      return {
        score: judgment.score,
        verdict: judgment.score >= p.pass_at ? 'pass' : 'fail',
        detail,
        usage,
        calls,
        reason: `essential ${b.essential.credit}/${b.essential.max}, extra ${b.extraCredit}, pitfall −${b.pitfall.deduction}/${b.pitfall.max}${b.rules.length > 0 ? `; rules: ${b.rules.join(', ')}` : ''}`,
      };
    };
  },
  warnings: (p) => {
    if (p.rubrics === undefined) return [];
    const problems = rubricFileProblems(loadMedicalRubrics(p.rubrics));
    if (problems.length === 0) return [];
    // The good rubrics are used; each sample whose rubric is bad or unreadable fails with the reason.
    return [
      `${problems.length} problem(s) in ${p.rubrics}; samples without a valid rubric are recorded as failed:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    ];
  },
  rows: medicalRubricRows,
  judge: {
    reads:
      "metadata.rubric (a QuarkMedBench rubric), else the rubric with the sample id in --rubrics; in a multi-turn session the last user turn is the question and the other turns are the grader's context",
    examples: [
      '--models models.yaml --model judge --rubrics examples/medical-rubrics.jsonl --input answers.jsonl --output graded.jsonl',
      '--models models.yaml --model judge --no-truncation --weights-pitfall 3 --input answers.jsonl --output graded.jsonl',
    ],
  },
});
