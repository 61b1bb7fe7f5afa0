import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { z } from 'zod';
import type { LlmUsage } from '../../core/index.js';
import type { ToolPlanJudgment } from '../../judges/index.js';
import { toolPlanSource } from '../../spec/sources/tool-plan-source.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag, type DeprecatedFlag } from '../deprecated-flag.js';
import { formatToolPlanReport } from '../format-tool-plan-report.js';
import type { MappedRow } from '../map-jsonl-rows.js';
import { addParamFlags, paramFlags, paramsFromFlags } from '../params-flags.js';
import {
  addJsonlOptions,
  JSONL_OUTPUT_HELP,
  type JsonlCommandFlags,
  requireJsonlInput,
  runJsonlCommand,
} from './jsonl-command.js';
import { judgeKindRow } from './judge-kind-row.js';
import {
  addResponseCacheOptions,
  JUDGE_CACHE_HELP,
  type JudgeModelFlags,
  openJudgeServices,
} from './judge-model.js';

type ToolPlanFlags = JsonlCommandFlags &
  Pick<JudgeModelFlags, 'models' | 'store' | 'cache' | 'cacheTtl'> & { report?: string };

/** The tool_plan params under the spec's names (all but the verdict threshold, which a score line has no use for). */
const toolPlanFlags = () =>
  paramFlags(
    toolPlanSource.params,
    new Set(['--input', '--output', '--concurrency', '--store', '--models']),
  ).filter((f) => f.path[0] !== 'pass_at');

/** `--weights p,r,o`, the name before the flags took the spec's. */
const DEPRECATED_WEIGHTS: DeprecatedFlag = {
  flags: '--weights <p,r,o>',
  replacement: '--weights-precision, --weights-recall, --weights-overall',
  apply: (value) => {
    const parts = String(value)
      .split(',')
      .map((s) => Number(s.trim()));
    if (
      parts.length !== 3 ||
      parts.some((n) => !Number.isFinite(n) || n < 0) ||
      parts.every((n) => n === 0)
    ) {
      throw new Error(
        `expects three numbers ≥ 0, not all 0, as precision,recall,overall (e.g. 1,1,1), got "${value}".`,
      );
    }
    const [precision, recall, overall] = parts;
    return [
      ['weightsPrecision', precision],
      ['weightsRecall', recall],
      ['weightsOverall', overall],
    ];
  },
};

/** Every output line of this command in the file, for the report (a resumed run reports on all of them). */
async function outputRecords(output: string): Promise<unknown[]> {
  const text = await readFile(output, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as unknown];
      } catch {
        return [];
      }
    });
}

/** `rewardkit judge tool-plan`: the ATP-Bench tool-plan judge over JSONL or JSON rows, with a report. */
export function registerJudgeToolPlanCommand(judge: Command, state: CommandState): void {
  const flags = toolPlanFlags();
  const command = addResponseCacheOptions(
    addJsonlOptions(
      judge
        .command('tool-plan')
        .description(
          'ATP-Bench tool-plan judge: interleaved answers with tool-call placeholders -> precision, missed opportunities, overall quality, score; report per category and intent',
        ),
      { concurrency: 4 },
    ),
  )
    .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
    .option('--report <file>', 'also write the per-category and per-intent report as JSON')
    .addHelpText(
      'after',
      `
Input: JSONL, or a JSON array when the file ends in .json. Each row is an ATP-Bench row
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
to stderr after the summary line, built from the whole --output file when there is one.
${JSONL_OUTPUT_HELP}
${JUDGE_CACHE_HELP}

Example:
  rewardkit judge tool-plan --models models.yaml --model judge \\
    --input examples/atp-rows.jsonl -o plans.jsonl --report plans-report.json`,
    )
    .action(async (options: ToolPlanFlags) => {
      const { usageCost } = await import('../judgment-cost.js');
      const { AtpRowSchema, toolPlanReport, ToolPlanRecordSchema } = await import('../../judges/index.js');
      // The row as ATP-Bench wrote it goes to the judge kind, which reads it itself; the parse here
      // names a malformed row's field and resolves its id.
      const rowSchema = z.unknown().transform((raw, ctx) => {
        const parsed = AtpRowSchema.safeParse(raw);
        if (parsed.success) return { ...parsed.data, raw: raw as Record<string, unknown> };
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as z.core.$ZodRawIssue);
        return z.NEVER;
      });
      const params = toolPlanSource.params.parse(paramsFromFlags(toolPlanSource.params, flags, command));
      requireJsonlInput(options);
      const { services, close } = await openJudgeServices(
        options,
        [params.model, params.precision_model, params.missed_model, params.overall_model],
        'judge tool-plan',
      );
      const judgeRow = toolPlanSource.create(params);
      const toFile = options.output !== undefined && options.output !== '-';
      // Printed rows are kept for the report; written rows are read back from the file instead.
      const rows: MappedRow[] = [];
      try {
        await runJsonlCommand(
          'judge tool-plan',
          options,
          {
            schema: rowSchema,
            idOf: (row) => row.id,
            // ATP rows name themselves by id or trace_id, which the schema resolves.
            autoId: false,
            handle: async (row) => {
              const judged = await judgeKindRow(
                judgeRow,
                {
                  id: row.id,
                  prompt: row.query,
                  response: row.response,
                  metadata: { doc: row.raw.doc, images: row.raw.images, image_query: row.raw.image_query },
                },
                services,
              );
              // A scored row's detail leaves the calls out; its usage says what they cost.
              const judgment = judged.detail as Omit<ToolPlanJudgment, 'calls'>;
              const cost = usageCost(judged.usage as LlmUsage);
              const c = judgment.components;
              const out: MappedRow = {
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
                ...cost,
              };
              if (!toFile) rows.push({ id: row.id, ...out });
              return out;
            },
          },
          state,
        );
      } finally {
        await close();
      }
      const records = (toFile ? await outputRecords(options.output as string) : rows).flatMap((r) => {
        const parsed = ToolPlanRecordSchema.safeParse(r);
        return parsed.success ? [parsed.data] : [];
      });
      const report = toolPlanReport(records);
      process.stderr.write(formatToolPlanReport(report));
      if (options.report !== undefined)
        await writeFile(options.report, `${JSON.stringify(report, null, 2)}\n`);
    });
  addParamFlags(command, flags);
  addDeprecatedFlag(command, DEPRECATED_WEIGHTS);
}
