import type { Command } from 'commander';
import { z } from 'zod';
import { RewardKitError, SampleIdSchema } from '../../core/index.js';
import type { ClaimCheckJudgment, ClaimDocument } from '../../judges/index.js';
import { ClaimAggregateSchema } from '../../judges/index.js';
import { claimsSource } from '../../spec/sources/claims-source.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag } from '../deprecated-flag.js';
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

/** A RAG answer to check; the documents schema comes from the judges module, loaded when the command runs. */
const claimRowSchema = <D extends z.ZodType<ClaimDocument[]>>(documents: D) =>
  z.object({
    id: SampleIdSchema,
    question: z.string(),
    /** Missing or empty: recorded as a failed row (nothing to check against), with no Checker call. */
    documents: documents.optional(),
    answer: z.string(),
  });

type CheckClaimsFlags = JsonlCommandFlags &
  Omit<JudgeModelFlags, 'model'> & { model?: string; proposer?: string; checker?: string };

/**
 * `rewardkit check claims`: the `claims` judge kind over RAG rows, its params as flags under the
 * spec's names, the rows and the output lines in MARCH's own terms.
 */
export function registerCheckClaimsCommand(check: Command, state: CommandState): void {
  const flags = paramFlags(
    claimsSource.params,
    new Set(['--input', '--output', '--concurrency', '--store', '--models']),
  );
  const command = addResponseCacheOptions(
    addJsonlOptions(
      check
        .command('claims')
        .description(
          'MARCH claim check of RAG answers: rows {"id", "question", "documents", "answer"} -> {"id", "reward", "claims", ...}',
        ),
      { concurrency: 8 },
    ),
  ).option('--models <file>', 'models file (default: $REWARDKIT_MODELS)');
  addParamFlags(command, flags)
    .addHelpText(
      'after',
      `
Each row: {"id", "question", "documents": [string | {"title"?, "text"}], "answer"}. The answer's
single <think> block is dropped. The Proposer (question + answer, never the documents) lists claims
as questions with expected values; k Checker runs (documents + questions, never the answer or the
expected values) answer each from the documents or say "cannot answer"; each run's answer that
matches scores +1, anything else -1, and the sign of the sum decides each claim (ties: --tie).

Each output line: {"id", "reward", "verdict" ("pass" | "fail" | "no_claims"), "aggregate", "faults",
"supported", "claims": [{"id", "question", "expected", "verdict", "sum", "label", "votes": [...]}],
"figures", "runs" (per Checker run: skipped, unknown and repeated ids), "flags", "warnings",
"calls", "tokens", "usage"}. Rewards: zero_tolerance (default) -1 if any fault else 0; proportional
-0.1 × min(faults, 13); ragas, factscore, safe_f1, refchecker_* as in docs/claims.md. No claims:
reward 0, verdict "no_claims", flag "no_claims". Missing or empty documents, an unreadable
Proposer, Checker or matcher, or a backend that fails after its retries: {"id", "error", "stage",
"raw", ...}, a failed row, never a score. A second summary line counts claims, faults and calls.
${JSONL_OUTPUT_HELP}
${JUDGE_CACHE_HELP}

Examples:
  rewardkit check claims --models models.yaml -m judge --input rag.jsonl -o checked.jsonl
  rewardkit check claims --models models.yaml --proposer small --checker large --mode claims \\
    --reward ragas --input rag.jsonl`,
    )
    .action(async (options: CheckClaimsFlags) => {
      const { judgmentCost } = await import('../judgment-cost.js');
      const { ClaimDocumentsSchema } = await import('../../judges/index.js');
      if (
        (options.proposer ?? options.model) === undefined ||
        (options.checker ?? options.model) === undefined
      ) {
        throw new RewardKitError(
          'RK_USAGE',
          'check claims needs its models: --model <name> for every role, or --proposer <name> and --checker <name> (and --matcher for --mode claims)',
        );
      }
      const params = claimsSource.params.parse(paramsFromFlags(claimsSource.params, flags, command));
      requireJsonlInput(options);
      const { services, close } = await openJudgeServices(
        options,
        [params.model, params.proposer, params.checker, params.matcher],
        'check claims',
      );
      const checkClaims = claimsSource.create(params);
      const totals = { answers: 0, claims: 0, faults: 0, calls: 0 };
      try {
        await runJsonlCommand(
          'check claims',
          options,
          {
            schema: claimRowSchema(ClaimDocumentsSchema),
            idOf: (row) => row.id,
            handle: async (row) => {
              const judged = await judgeKindRow(
                checkClaims,
                {
                  id: row.id,
                  prompt: row.question,
                  response: row.answer,
                  metadata: row.documents === undefined ? {} : { documents: row.documents },
                },
                services,
              );
              const judgment = judged.detail as ClaimCheckJudgment;
              const cost = judgmentCost(judgment.calls);
              totals.answers++;
              totals.calls += cost.calls;
              if (judgment.status === 'invalid') {
                return {
                  error: `the claim check could not be made (${judgment.stage}): ${judgment.reason}`,
                  stage: judgment.stage,
                  raw: judgment.raw,
                  ...(judgment.claims !== undefined && { claims: judgment.claims }),
                  warnings: judgment.warnings,
                  ...cost,
                };
              }
              const faults = judgment.claims.filter((c) => c.verdict === 'fault').length;
              totals.claims += judgment.claims.length;
              totals.faults += faults;
              return {
                reward: judgment.score,
                verdict: judgment.verdict,
                aggregate: judgment.aggregate,
                faults,
                supported: judgment.claims.length - faults,
                claims: judgment.claims,
                figures: judgment.figures,
                runs: judgment.runs,
                think_dropped: judgment.thinkDropped,
                flags: judgment.flags,
                warnings: judgment.warnings,
                ...cost,
              };
            },
          },
          state,
        );
        const perAnswer = totals.answers === 0 ? 0 : totals.calls / totals.answers;
        process.stderr.write(
          `rewardkit check claims: ${totals.claims} claims checked, ${totals.faults} faults, ${totals.calls} LLM calls (${perAnswer.toFixed(1)} per answer)\n`,
        );
      } finally {
        await close();
      }
    });
  // The spec's name for it is `reward`; the old name keeps working with a deprecation line.
  addDeprecatedFlag(command, {
    flags: '--aggregate <name>',
    replacement: '--reward',
    apply: (value) => {
      const reward = ClaimAggregateSchema.safeParse(value);
      if (!reward.success)
        throw new Error(`expects one of ${ClaimAggregateSchema.options.join(', ')}, got "${value}"`);
      return [['reward', reward.data]];
    },
  });
}
