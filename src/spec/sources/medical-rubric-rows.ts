import { z } from 'zod';
import { ChatMessageSchema, SampleIdSchema, withConversationRows } from '../../core/index.js';
import type { MedicalRubricJudgment } from '../../judges/index.js';
import { type DetailOf, type JudgeRowFormat, lineCost } from '../judge-rows.js';

/**
 * A response to grade, or a conversation (`messages`) whose last, assistant turn is graded; the
 * rubric comes inline (`rubric` or `metadata.rubric`) or from --rubrics by id.
 */
const PointwiseRowSchema = withConversationRows(
  z.object({
    id: SampleIdSchema,
    prompt: z.union([z.string(), z.array(ChatMessageSchema)]).optional(),
    response: z.string(),
    rubric: z.unknown().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
);

/** `rewardkit judge medical_rubric --bench-rows`: the medical_rubric kind over QuarkMedBench rows, its lines in the benchmark's terms. */
export const medicalRubricRows: JudgeRowFormat<typeof PointwiseRowSchema> = {
  command: ['judge', 'pointwise'],
  description:
    'QuarkMedBench rubric judge: rows {"id", "prompt", "response"} or {"id", "messages"} graded against their rubric -> {"id", "score", ...}',
  help: `Each output line: {"id", "score" (0..1), "breakdown" (per-section credit, rules that fired, range),
"grades" (per criterion: id, section, grade, evidence, reason), "calls", "tokens", "usage"}.
The rubric is the row's "rubric" (or "metadata.rubric"), else the one with the row's id in --rubrics.
A multi-turn row gives "messages" [{role, content}, ...] instead of "prompt"/"response": its last
turn, which must be the assistant's, is graded, with the earlier turns shown as context.
A row with no rubric or an inline rubric that fails its schema prints {"id", "error"}; a grading
the judge never returned readably prints {"id", "error", "raw", "calls", "tokens", "usage"}: never
a score. Rubrics in the --rubrics file that fail their schema are listed on stderr (file, line, field);
the valid ones are used and each row whose rubric is bad or unreadable is recorded as failed with the reason.`,
  examples: [
    '--models models.yaml --model judge \\\n    --rubrics examples/medical-rubrics.jsonl --input examples/medical-rows.jsonl -o graded.jsonl',
  ],
  concurrency: 8,
  omit: ['pass_at'],
  schema: PointwiseRowSchema,
  idOf: (row) => row.id,
  sample: (row) => {
    const rubric = row.rubric ?? row.metadata?.rubric;
    return {
      id: row.id,
      ...(row.prompt !== undefined && { prompt: row.prompt }),
      response: row.response,
      metadata: { ...row.metadata, ...(rubric !== undefined && { rubric }) },
    };
  },
  line: ({ detail, usage }) => {
    const judgment = detail as DetailOf<MedicalRubricJudgment>;
    const cost = lineCost(usage);
    // Never a score: the reason, the judge's last output and what the calls cost are kept.
    if (judgment.status === 'invalid') {
      return { error: `the judge gave no readable grading: ${judgment.reason}`, raw: judgment.raw, ...cost };
    }
    return { score: judgment.score, breakdown: judgment.breakdown, grades: judgment.grades, ...cost };
  },
};
