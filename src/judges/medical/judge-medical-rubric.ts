import { type ChatMessage, parseArgument } from '../../core/index.js';
import type { CallTrace, ChatModel } from '../../llm/index.js';
import type { CreditGrade, PitfallGrade } from './medical-grades.js';
import { medicalGradingRole } from './medical-grading-role.js';
import type { MedicalRubric } from './medical-rubric.js';
import { type MedicalScoringOptions, MedicalScoringOptionsSchema } from './medical-scoring-options.js';
import { rubricCriteria } from './rubric-criteria.js';
import { type MedicalScoreBreakdown, scoreMedicalGrades } from './score-medical-grades.js';

export interface MedicalRubricInput {
  /** The user's question (untrusted). */
  query: string;
  /** The answer under judgment (untrusted): in a multi-turn session, the final assistant turn. */
  response: string;
  rubric: MedicalRubric;
  /** The turns before the final question, shown as context and never graded (untrusted). */
  context?: readonly ChatMessage[];
}

export interface MedicalRubricJudgeOptions {
  model: ChatModel;
  /** Re-asks after unreadable output (default 2). */
  reasks?: number;
  temperature?: number;
  scoring?: MedicalScoringOptions;
  signal?: AbortSignal;
}

/** One criterion as the judge graded it. */
export interface MedicalCriterionGrade {
  id: string;
  section: 'essential' | 'important' | 'highlight' | 'pitfall';
  title: string;
  weight: number;
  grade: CreditGrade | PitfallGrade;
  evidence: string;
  reason: string;
}

export type MedicalRubricJudgment =
  | {
      status: 'ok';
      /** In [0, 1], computed in code from the grades. */
      score: number;
      breakdown: MedicalScoreBreakdown;
      grades: MedicalCriterionGrade[];
      calls: CallTrace[];
    }
  /** No readable grading after the re-asks, or the backend failed: never a score. */
  | { status: 'invalid'; reason: string; raw: string | null; calls: CallTrace[] };

/**
 * QuarkMedBench pointwise judging: one structured call grades every rubric criterion by id (with
 * a quoted piece of evidence and a reason); the score is computed from the grades in code. In a
 * multi-turn session the earlier turns come as context and only the final answer is graded.
 */
export async function judgeMedicalRubric(
  input: MedicalRubricInput,
  options: MedicalRubricJudgeOptions,
): Promise<MedicalRubricJudgment> {
  // Bad scoring options fail before any call is paid for.
  const scoring = parseArgument(
    MedicalScoringOptionsSchema,
    options.scoring ?? {},
    'medical scoring options',
  );
  const criteria = rubricCriteria(input.rubric);
  const outcome = await medicalGradingRole(
    {
      query: input.query,
      response: input.response,
      criteria,
      ...(input.context?.length && { context: input.context }),
    },
    options,
  );
  if (outcome.status === 'invalid') return outcome;
  const byId = new Map(outcome.value.grades.map((g) => [g.id, g]));
  const grades: MedicalCriterionGrade[] = criteria.map((entry) => {
    // The schema guarantees every id exactly once, with a grade of the right kind.
    const g = byId.get(entry.id) as (typeof outcome.value.grades)[number];
    return {
      id: entry.id,
      section: entry.section,
      title: entry.criterion.title,
      weight: entry.criterion.weight,
      grade: g.grade,
      evidence: g.evidence,
      reason: g.reason,
    };
  });
  const of = (section: MedicalCriterionGrade['section']) =>
    grades.filter((g) => g.section === section).map((g) => ({ weight: g.weight, grade: g.grade }));
  const breakdown = scoreMedicalGrades(
    {
      essential: of('essential') as Array<{ weight: number; grade: CreditGrade }>,
      important: of('important') as Array<{ weight: number; grade: CreditGrade }>,
      highlight: of('highlight') as Array<{ weight: number; grade: CreditGrade }>,
      pitfall: of('pitfall') as Array<{ weight: number; grade: PitfallGrade }>,
    },
    scoring,
  );
  return { status: 'ok', score: breakdown.score, breakdown, grades, calls: outcome.calls };
}
