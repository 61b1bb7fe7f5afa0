import { z } from 'zod';
import { promptText, RewardKitError } from '../../core/index.js';
import { AtpRowSchema } from '../../judges/tool-plan/atp-row.js';
import type { ToolPlanRole } from '../../judges/tool-plan/index.js';
import { judgeCallsOf } from '../../llm/judge-call-of.js';
import { usageOf } from '../../llm/usage-of.js';
import { defineJudgeKind } from '../judge-kind.js';
import { SourceFailedError } from '../source-failed-error.js';
import { onFirstUse } from './on-first-use.js';
import { toolPlanRows } from './tool-plan-rows.js';

const loadJudge = onFirstUse(() => import('../../judges/tool-plan/judge-tool-plan.js'));

const params = z.strictObject({
  model: z
    .string()
    .min(1)
    .meta({ placeholder: 'name', short: '-m' })
    .describe(
      "the judge: a model name from the models file, every role's model unless the role names its own",
    ),
  precision_model: z
    .string()
    .min(1)
    .meta({ placeholder: 'name' })
    .optional()
    .describe('the model judging each planned call'),
  missed_model: z
    .string()
    .min(1)
    .meta({ placeholder: 'name' })
    .optional()
    .describe('the model finding missed tool opportunities'),
  overall_model: z
    .string()
    .min(1)
    .meta({ placeholder: 'name' })
    .optional()
    .describe('the model judging the plan as a whole'),
  reasks: z.number().int().nonnegative().default(2).describe('re-asks after unreadable output'),
  temperature: z.number().min(0).max(2).optional().describe('sampling temperature of the judges'),
  weights: z
    .strictObject({
      precision: z.number().nonnegative().optional().describe('weight of precision (default 1)'),
      recall: z.number().nonnegative().optional().describe('weight of recall (default 1)'),
      overall: z.number().nonnegative().optional().describe('weight of the overall judgment (default 1)'),
    })
    .refine(
      (w) => (w.precision ?? 1) + (w.recall ?? 1) + (w.overall ?? 1) > 0,
      'at least one weight must be > 0',
    )
    .optional()
    .describe('weights of precision, recall and the overall judgment in the score'),
  on_invalid: z
    .enum(['fail', 'exclude'])
    .default('fail')
    .describe('an unreadable per-call judgment fails the sample, or is left out of precision'),
  context_before: z
    .number()
    .int()
    .nonnegative()
    .default(600)
    .describe('characters of the response shown before each planned call'),
  context_after: z
    .number()
    .int()
    .nonnegative()
    .default(300)
    .describe('characters of the response shown after each planned call'),
  pass_at: z.number().min(0).max(1).default(0.5).describe('the verdict is pass at or above this score'),
});

/**
 * The ATP-Bench tool-plan judge on a sample: the prompt is the query, the response the
 * interleaved answer; `metadata.doc`, `metadata.images` and `metadata.image_query` are what was
 * given with the query, as in an ATP-Bench row.
 */
export const toolPlanSource = defineJudgeKind({
  kind: 'tool_plan',
  description:
    'ATP-Bench tool-plan judge: each planned tool call judged for necessity and fit, missed opportunities, overall quality; weighted in code into [0, 1]',
  params,
  create:
    (p) =>
    async (sample, { services, signal }) => {
      const row = AtpRowSchema.safeParse({
        id: sample.id,
        query: promptText(sample),
        response: sample.response,
        doc: sample.metadata.doc,
        images: sample.metadata.images,
        image_query: sample.metadata.image_query,
      });
      if (!row.success) {
        const issue = row.error.issues[0];
        const field = issue?.path.length ? issue.path.join('.') : '(sample)';
        const where = ['doc', 'images', 'image_query'].includes(String(issue?.path[0]))
          ? `metadata.${field}`
          : field;
        throw new RewardKitError('RK_SOURCE_FAILED', `tool_plan: ${where}: ${issue?.message ?? 'invalid'}`);
      }
      const roles: Partial<Record<ToolPlanRole, ReturnType<typeof services.model>>> = {};
      if (p.precision_model) roles.precision = services.model(p.precision_model);
      if (p.missed_model) roles.missed = services.model(p.missed_model);
      if (p.overall_model) roles.overall = services.model(p.overall_model);
      const { judgeToolPlan } = await loadJudge();
      const judgment = await judgeToolPlan(
        { query: row.data.query, doc: row.data.doc, images: row.data.images, response: row.data.response },
        {
          model: services.model(p.model),
          roles,
          reasks: p.reasks,
          onInvalid: p.on_invalid,
          window: { before: p.context_before, after: p.context_after },
          signal,
          ...(p.weights && { weights: p.weights }),
          ...(p.temperature !== undefined && { temperature: p.temperature }),
        },
      );
      const usage = usageOf(judgment.calls);
      const calls = judgeCallsOf(judgment.calls);
      const { calls: _traces, ...detail } = judgment;
      if (judgment.status === 'invalid' || judgment.score === null) {
        throw new SourceFailedError(`tool_plan: ${judgment.reason ?? 'no score'}`, { detail, usage, calls });
      }
      const c = judgment.components;
      return {
        score: judgment.score,
        verdict: judgment.score >= p.pass_at ? 'pass' : 'fail',
        detail,
        usage,
        calls,
        ...(judgment.warnings.length > 0 && { warnings: judgment.warnings }),
        reason: `precision ${c?.precision ?? 'n/a'}, recall ${c?.recall ?? 'n/a'}, overall ${c?.overall ?? 'n/a'}; ${judgment.calls_planned.length} call(s), ${judgment.missed?.length ?? 0} missed, ${judgment.findings.length} finding(s)`,
      };
    },
  rows: toolPlanRows,
  judge: {
    reads: 'metadata.doc, metadata.images and metadata.image_query, as in an ATP-Bench row',
    examples: ['--models models.yaml --model judge --input plans.jsonl --output judged.jsonl'],
  },
});
