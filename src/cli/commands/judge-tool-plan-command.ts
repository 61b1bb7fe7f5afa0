import { readFile, writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import type { ChatModel } from '../../llm/index.js';
import { toolPlanSource } from '../../spec/sources/tool-plan-source.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag, type DeprecatedFlag } from '../deprecated-flag.js';
import { formatToolPlanReport } from '../format-tool-plan-report.js';
import type { MappedRow } from '../map-jsonl-rows.js';
import { loadConfiguredModels, pickModel } from '../models-location.js';
import { nonNegativeInt } from '../number-flags.js';
import { addParamFlags, paramFlags, paramsFromFlags } from '../params-flags.js';
import {
  addJsonlOptions,
  JSONL_OUTPUT_HELP,
  type JsonlCommandFlags,
  requireJsonlInput,
  runJsonlCommand,
} from './jsonl-command.js';
import {
  addJudgeModelOptions,
  JUDGE_CACHE_HELP,
  type JudgeModelFlags,
  openResponseCache,
} from './judge-model.js';

interface ToolPlanFlags extends JsonlCommandFlags, JudgeModelFlags {
  precisionModel?: string;
  missedModel?: string;
  overallModel?: string;
  onInvalid: 'fail' | 'exclude';
  contextBefore: number;
  contextAfter: number;
  reasks: number;
  report?: string;
}

/** `--weights-precision`, `--weights-recall`, `--weights-overall`: the spec's `weights` param. */
const weightFlags = () => paramFlags(toolPlanSource.params).filter((f) => f.path[0] === 'weights');

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

/** The judge model of every role, from one models file, answered from one store's response cache. */
async function openRoleModels(flags: ToolPlanFlags) {
  const configured = await loadConfiguredModels(flags.models);
  const cache = await openResponseCache(flags);
  const open = (name: string): ChatModel => cache.cached(pickModel(configured, name, 'judge tool-plan'));
  const model = open(flags.model);
  const roles: Partial<Record<'precision' | 'missed' | 'overall', ChatModel>> = {};
  if (flags.precisionModel !== undefined) roles.precision = open(flags.precisionModel);
  if (flags.missedModel !== undefined) roles.missed = open(flags.missedModel);
  if (flags.overallModel !== undefined) roles.overall = open(flags.overallModel);
  return { model, roles, close: cache.close };
}

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
  const weights = weightFlags();
  const command = addJudgeModelOptions(
    addJsonlOptions(
      judge
        .command('tool-plan')
        .description(
          'ATP-Bench tool-plan judge: interleaved answers with tool-call placeholders -> precision, missed opportunities, overall quality, score; report per category and intent',
        ),
      { concurrency: 4 },
    ),
  )
    .option('--precision-model <name>', 'model of the precision role (default: --model)')
    .option('--missed-model <name>', 'model of the missed-opportunities role (default: --model)')
    .option('--overall-model <name>', 'model of the overall-quality role (default: --model)')
    .addOption(
      new Option(
        '--on-invalid <policy>',
        'an unreadable role judgment fails the row, or is left out with a warning',
      )
        .choices(['fail', 'exclude'])
        .default('fail'),
    )
    .option(
      '--context-before <chars>',
      'answer text the precision role sees before a call',
      nonNegativeInt('--context-before'),
      600,
    )
    .option(
      '--context-after <chars>',
      'answer text the precision role sees after a call',
      nonNegativeInt('--context-after'),
      300,
    )
    .option('--reasks <n>', 're-asks after unreadable output', nonNegativeInt('--reasks'), 2)
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
    .action(async (flags: ToolPlanFlags) => {
      const { judgmentCost } = await import('../judgment-cost.js');
      const { AtpRowSchema, judgeToolPlan, toolPlanReport, ToolPlanRecordSchema } = await import(
        '../../judges/index.js'
      );
      const params = toolPlanSource.params.parse(
        paramsFromFlags(toolPlanSource.params, weights, command, { model: flags.model }),
      );
      requireJsonlInput(flags);
      const models = await openRoleModels(flags);
      const toFile = flags.output !== undefined && flags.output !== '-';
      // Printed rows are kept for the report; written rows are read back from the file instead.
      const rows: MappedRow[] = [];
      try {
        await runJsonlCommand(
          'judge tool-plan',
          flags,
          {
            schema: AtpRowSchema,
            idOf: (row) => row.id,
            // ATP rows name themselves by id or trace_id, which the schema resolves.
            autoId: false,
            handle: async (row) => {
              const judgment = await judgeToolPlan(
                { query: row.query, doc: row.doc, images: row.images, response: row.response },
                {
                  model: models.model,
                  roles: models.roles,
                  reasks: flags.reasks,
                  onInvalid: flags.onInvalid,
                  window: { before: flags.contextBefore, after: flags.contextAfter },
                  ...(params.weights && { weights: params.weights }),
                },
              );
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
                ...judgmentCost(judgment.calls),
              };
              if (!toFile) rows.push({ id: row.id, ...out });
              return out;
            },
          },
          state,
        );
      } finally {
        await models.close();
      }
      const records = (toFile ? await outputRecords(flags.output as string) : rows).flatMap((r) => {
        const parsed = ToolPlanRecordSchema.safeParse(r);
        return parsed.success ? [parsed.data] : [];
      });
      const report = toolPlanReport(records);
      process.stderr.write(formatToolPlanReport(report));
      if (flags.report !== undefined) await writeFile(flags.report, `${JSON.stringify(report, null, 2)}\n`);
    });
  addParamFlags(command, weights);
  addDeprecatedFlag(command, DEPRECATED_WEIGHTS);
}
