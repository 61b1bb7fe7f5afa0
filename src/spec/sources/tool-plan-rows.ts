import { z } from 'zod';
import type { ToolPlanJudgment } from '../../judges/index.js';
import { AtpRowSchema } from '../../judges/tool-plan/atp-row.js';
import { formatToolPlanReport } from '../../judges/tool-plan/format-tool-plan-report.js';
import { ToolPlanRecordSchema, toolPlanReport } from '../../judges/tool-plan/tool-plan-report.js';
import { type JudgeRowFormat, lineCost } from '../judge-rows.js';

/**
 * The row as ATP-Bench wrote it goes to the judge kind, which reads it itself; this parse names a
 * malformed row's field and resolves its id.
 */
const ToolPlanRowSchema = z.unknown().transform((raw, ctx) => {
  const parsed = AtpRowSchema.safeParse(raw);
  if (parsed.success) return { ...parsed.data, raw: raw as Record<string, unknown> };
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as z.core.$ZodRawIssue);
  return z.NEVER;
});

/** `rewardkit judge tool_plan --bench-rows`: the tool_plan kind over ATP-Bench rows, with its report per category and intent. */
export const toolPlanRows: JudgeRowFormat<typeof ToolPlanRowSchema> = {
  command: ['judge', 'tool-plan'],
  description:
    'ATP-Bench tool-plan judge: interleaved answers with tool-call placeholders -> precision, missed opportunities, overall quality, score; report per category and intent',
  help: `Input: JSONL, or a JSON array when the file ends in .json. Each row is an ATP-Bench row
{"id" (or "trace_id"), "query", "image_query", "doc", "images", "gt"} plus the "response" under
judgment (its placeholders: <image_search>…</image_search>, <image_generation>, <image_editing>,
<code_rendering>, <image_reference id="N"/>, [tool: …]; see docs/tool-plan.md), and optionally
"category" (academic, manual, recipe, fashion, renovation, product, travel, encyclopedia) and
"intent". "gt" is never shown to the judge.

Each output line: {"id", "category", "intent", "score" (0..1), "precision", "recall", "overall",
"f1", "calls_planned" (each call with its judgment), "findings" (placeholder problems with
line and column), "missed", "overall_judgment", "warnings", "calls", "tokens", "usage"}. A role
judgment that stays unreadable makes the row {"id", "error", "invalid": [{role, reason, raw}]}
(with --on-invalid fail): never a score of 0. The report (all rows, per category, per intent) goes
to stderr after the summary line, built from the whole --output file when there is one.`,
  examples: [
    '--models models.yaml --model judge \\\n    --input examples/atp-rows.jsonl -o plans.jsonl --report plans-report.json',
  ],
  concurrency: 4,
  omit: ['pass_at'],
  schema: ToolPlanRowSchema,
  ownIds: true,
  idOf: (row) => row.id,
  sample: (row) => ({
    id: row.id,
    prompt: row.query,
    response: row.response,
    metadata: { doc: row.raw.doc, images: row.raw.images, image_query: row.raw.image_query },
  }),
  line: ({ detail, usage }, row) => {
    // A scored row's detail leaves the calls out; its usage says what they cost.
    const judgment = detail as Omit<ToolPlanJudgment, 'calls'>;
    const c = judgment.components;
    return {
      ...(row.category !== undefined && { category: row.category }),
      ...(row.intent !== undefined && { intent: row.intent }),
      ...(judgment.status === 'invalid' && { error: `no readable judgment: ${judgment.reason}` }),
      score: judgment.score,
      precision: c?.precision ?? null,
      recall: c?.recall ?? null,
      overall: c?.overall ?? null,
      f1: c?.f1 ?? null,
      calls_planned: judgment.calls_planned,
      findings: judgment.findings,
      missed: judgment.missed,
      overall_judgment: judgment.overall,
      ...(judgment.invalid.length > 0 && { invalid: judgment.invalid }),
      ...(judgment.warnings.length > 0 && { warnings: judgment.warnings }),
      ...lineCost(usage),
    };
  },
  report: {
    build: (lines) =>
      toolPlanReport(
        lines.flatMap((line) => {
          const parsed = ToolPlanRecordSchema.safeParse(line);
          return parsed.success ? [parsed.data] : [];
        }),
      ),
    format: formatToolPlanReport,
    file: true,
  },
};
