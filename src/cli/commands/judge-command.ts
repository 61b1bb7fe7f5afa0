import { type Command, Option } from 'commander';
import { z } from 'zod';
import { RewardKitError, SampleIdSchema } from '../../core/index.js';
import type { CallTrace } from '../../llm/index.js';
import { isJudgeKind, sourceKinds } from '../../spec/index.js';
import type { SampleText } from '../../store/index.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag } from '../deprecated-flag.js';
import { positiveInt } from '../number-flags.js';
import { pairwiseJudgeNames } from '../pairwise-judge-of.js';
import type { StoredJsonlRun } from '../stored-jsonl-run.js';
import {
  addJsonlOptions,
  JSONL_OUTPUT_HELP,
  type JsonlCommandFlags,
  requireJsonlInput,
  runJsonlCommand,
} from './jsonl-command.js';
import { registerJudgeKindCommand } from './judge-kind-command.js';
import {
  addJudgeModelOptions,
  JUDGE_CACHE_HELP,
  type JudgeModelFlags,
  openJudgeModel,
  storedRunHelp,
} from './judge-model.js';
import { registerJudgeRowsCommands } from './judge-rows-command.js';

/**
 * A pair to judge; RewardBench-style `chosen`/`rejected` names are accepted for the two responses.
 * The constraint schema comes from the judges module, which is loaded only when the command runs.
 */
const pairRowSchema = <C extends z.ZodType>(constraint: C) =>
  z
    .object({
      id: SampleIdSchema,
      prompt: z.string(),
      first: z.string().optional(),
      second: z.string().optional(),
      chosen: z.string().optional(),
      rejected: z.string().optional(),
      /** OpenRS only: the ground truth and the instruction constraints of its pre-checks. */
      reference: z.string().optional(),
      constraints: z.array(constraint).optional(),
      /** Skill-RM only: the sample's metadata, its per-sample resource (label keys removed). */
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .transform((row, ctx) => {
      const first = row.first ?? row.chosen;
      const second = row.second ?? row.rejected;
      if (first === undefined || second === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'needs "first" and "second" (or "chosen" and "rejected")',
          path: ['first'],
        });
        return z.NEVER;
      }
      return {
        id: row.id,
        prompt: row.prompt,
        first,
        second,
        ...(row.reference !== undefined && { reference: row.reference }),
        ...(row.constraints !== undefined && { constraints: row.constraints }),
        ...(row.metadata !== undefined && { metadata: row.metadata }),
      };
    });

interface JudgeFlags extends JsonlCommandFlags, JudgeModelFlags {
  votes: number;
  bothOrders: boolean;
  judge: string;
  metaRubric?: string;
  domains?: string;
  benchmarkVisible?: boolean;
}

export function registerJudgeCommand(judge: Command, state: CommandState): void {
  const pairwiseCommand = addJudgeModelOptions(
    addJsonlOptions(
      judge
        .command('pairwise')
        .description(
          'A pairwise judge on pairs (Writing-Zero GenRM by default, or OpenRS): rows {"id", "prompt", "first", "second"} -> {"id", "verdict", ...}',
        ),
      { concurrency: 8 },
    ),
  )
    .addOption(
      new Option('--judge <name>', 'which pairwise judge: a judge kind that compares pairs')
        .choices(pairwiseJudgeNames())
        .default('genrm'),
    )
    .option('--votes <n>', 'calls per order (genrm)', positiveInt('--votes'), 1)
    .option('--no-both-orders', 'judge only the given order (default: both orders)')
    .option('--meta-rubric <file>', 'OpenRS meta-rubric markdown (default: the shipped one)')
    .option('--domains <dir>', 'OpenRS folder of domain pool markdown files (default: the shipped pools)')
    .option(
      '--benchmark-visible',
      "skill_rm: show the rows' reference and constraints to the judge (its benchmark_visible resources)",
    )
    .addHelpText(
      'after',
      `
Each output line: {"id", "verdict", "comparisons": [...], "calls", "tokens", "usage"}.
"chosen"/"rejected" work as "first"/"second". A verdict "invalid" (no readable judgment: HTTP
errors after retries, timeouts, unreadable output after re-asks) keeps its "reason", also carries
"error" and counts as failed.
${JSONL_OUTPUT_HELP}
${JUDGE_CACHE_HELP}
${storedRunHelp('judge')} Each row's reward is the first
response's (won 1, tie or inconsistent 0.5, lost 0), its evidence the judge's own judgment.

--judge genrm (default): verdict "first" | "second" | "tie" | "invalid"; "first" or "second" only
when that response wins every order and vote.

--judge openrs: rows may also carry "reference" (the ground truth) and "constraints" (free-text
strings or IFEval {"instruction_id", "kwargs"}); these pre-checks decide the pair when they
separate the responses. Otherwise the judge analyses the query's intent, compares the responses
criterion by criterion in both orders, and the verdict is "first" | "second" | "tie" |
"inconsistent" (the orders disagreed) | "invalid" (with "reason"). "detail" holds the pre-checks,
the intent, the criteria and each order's aggregate. The meta-rubric and the pools are editable
markdown: copy presets/openrs/ from the package and pass --meta-rubric and --domains.

--judge skill_rm: the judge opens the shipped reward-judge skill and gathers evidence by tool
calls (docs/skills.md); rows may carry "metadata" (its label keys are removed) and, with
--benchmark-visible, their "reference" and "constraints" become resources too.

Examples:
  rewardkit judge pairwise --models models.yaml --model judge --input pairs.jsonl -o verdicts.jsonl
  rewardkit judge pairwise --judge openrs --models models.yaml --model judge --input pairs.jsonl
  rewardkit judge pairwise --judge skill_rm --benchmark-visible --models models.yaml --model judge --input pairs.jsonl`,
    )
    .action(async (flags: JudgeFlags) => {
      if (flags.judge === 'openrs' && flags.votes !== 1)
        throw new RewardKitError(
          'RK_USAGE',
          '--votes applies to --judge genrm only; OpenRS makes one call per order',
        );
      if (flags.judge !== 'skill_rm' && flags.benchmarkVisible === true)
        throw new RewardKitError('RK_USAGE', '--benchmark-visible applies to --judge skill_rm only');
      if (flags.judge === 'genrm' && (flags.metaRubric !== undefined || flags.domains !== undefined))
        throw new RewardKitError('RK_USAGE', '--meta-rubric and --domains apply to --judge openrs only');
      const { judgmentCost } = await import('../judgment-cost.js');
      const { ConstraintSchema } = await import('../../judges/openrs/index.js');
      const { pairwiseJudgeOf } = await import('../pairwise-judge-of.js');
      requireJsonlInput(flags);
      const judgeModel = await openJudgeModel(flags, state);
      let stored: StoredJsonlRun | undefined;
      try {
        const { model } = judgeModel;
        // Built before the first row, so a broken meta-rubric or pool stops the run with its file and line.
        const pairwise = pairwiseJudgeOf(flags.judge, model, {
          both_orders: flags.bothOrders,
          ...(flags.judge === 'genrm' && { votes: flags.votes }),
          ...(flags.metaRubric !== undefined && { meta_rubric: flags.metaRubric }),
          ...(flags.domains !== undefined && { domains: flags.domains }),
          ...(flags.benchmarkVisible === true && { benchmark_visible: true }),
        });
        // Each judgment's traces and texts, from its row until its line is stored.
        const traced = new Map<string, { calls: CallTrace[]; text: SampleText }>();
        const verdicts: Record<string, number> = {};
        const { openStoredJsonlRun } = await import('../stored-jsonl-run.js');
        const { pairwiseLineResult } = await import('../pairwise-line-result.js');
        stored = await openStoredJsonlRun(flags, {
          command: 'judge pairwise',
          spec_name: `judge pairwise:${flags.judge}`,
          spec: {
            judge: 'pairwise',
            pairwise_judge: flags.judge,
            model: flags.model,
            both_orders: flags.bothOrders,
            votes: flags.votes,
          },
          kind: 'judge',
          resultOf: (line) => {
            const trace = traced.get(line.id);
            traced.delete(line.id);
            return {
              result: pairwiseLineResult(line, flags.judge, trace?.calls),
              ...(trace && { text: trace.text }),
            };
          },
          tally: (line) => {
            const verdict = typeof line.verdict === 'string' ? line.verdict : 'failed';
            verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
          },
        });
        const rows = await runJsonlCommand(
          'judge pairwise',
          flags,
          {
            schema: pairRowSchema(ConstraintSchema),
            idOf: (row) => row.id,
            ...(stored && { onWritten: stored.onWritten }),
            handle: async (row) => {
              const judgment = await pairwise.judge(row);
              if (stored)
                traced.set(row.id, {
                  calls: judgment.calls,
                  text: { prompt: row.prompt, response: row.first, reference: row.second },
                });
              return {
                verdict: judgment.verdict,
                ...(judgment.reason !== undefined && { reason: judgment.reason }),
                ...(judgment.decidedBy !== undefined && { decided_by: judgment.decidedBy }),
                ...(judgment.warnings !== undefined && { warnings: judgment.warnings }),
                // An invalid verdict is a failed row: counted, and marked like every other failure.
                ...(judgment.verdict === 'invalid' && {
                  error: `no readable verdict: ${judgment.reason ?? 'no comparison was readable'}`,
                }),
                comparisons: judgment.comparisons,
                ...(judgment.detail !== undefined && { detail: judgment.detail }),
                ...judgmentCost(judgment.calls),
              };
            },
          },
          state,
        );
        await stored?.finish(rows, () => ({
          kind: 'judge',
          headline: `judge pairwise --judge ${flags.judge} (${flags.model}): ${
            Object.entries(verdicts)
              .map(([verdict, n]) => `${n} ${verdict}`)
              .join(', ') || 'no rows'
          }`,
          command: 'judge pairwise',
          judge: flags.judge,
          model: flags.model,
          verdicts,
        }));
      } finally {
        await stored?.close();
        await judgeModel.close();
      }
    });
  // The spec's name for it is `both_orders`; the old name keeps working with a deprecation line.
  addDeprecatedFlag(pairwiseCommand, {
    flags: '--one-order',
    replacement: '--no-both-orders',
    apply: () => [['bothOrders', false]],
  });
  // Before the kinds' own commands: `judge tool-plan` is the tool_plan kind's row command.
  registerJudgeRowsCommands(judge, state);
  for (const kind of sourceKinds.values()) {
    if (isJudgeKind(kind)) registerJudgeKindCommand(judge, kind, state);
  }
}
