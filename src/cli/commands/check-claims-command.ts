import { type Command, InvalidArgumentError, Option } from 'commander';
import { z } from 'zod';
import { SampleIdSchema } from '../../core/index.js';
import {
  type ClaimAggregate,
  ClaimAggregateSchema,
  type ClaimDocument,
  type ClaimMode,
  ClaimModeSchema,
  type ClaimTie,
  ClaimTieSchema,
} from '../../judges/index.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag } from '../deprecated-flag.js';
import { positiveInt } from '../number-flags.js';
import { type ClaimRoleFlags, openClaimRoleModels } from './claim-role-models.js';
import {
  addJsonlOptions,
  JSONL_OUTPUT_HELP,
  type JsonlCommandFlags,
  requireJsonlInput,
  runJsonlCommand,
} from './jsonl-command.js';
import { addResponseCacheOptions, JUDGE_CACHE_HELP } from './judge-model.js';

/** A RAG answer to check; the documents schema comes from the judges module, loaded when the command runs. */
const claimRowSchema = <D extends z.ZodType<ClaimDocument[]>>(documents: D) =>
  z.object({
    id: SampleIdSchema,
    question: z.string(),
    /** Missing or empty: recorded as a failed row (nothing to check against), with no Checker call. */
    documents: documents.optional(),
    answer: z.string(),
  });

interface CheckClaimsFlags extends JsonlCommandFlags, ClaimRoleFlags {
  mode: ClaimMode;
  reward: ClaimAggregate;
  k: number;
  tie: ClaimTie;
  safeK: number;
  passAt: number;
  maxClaims?: number;
  reasks: number;
  checkerTemperature: number;
  seed: number;
}

const numberIn = (flag: string, min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max)
    throw new InvalidArgumentError(`${flag} expects a number in [${min}, ${max}], got "${value}".`);
  return n;
};
const integer = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`${flag} expects an integer, got "${value}".`);
  return n;
};

/** `rewardkit check claims`: the MARCH claim check over RAG rows. */
export function registerCheckClaimsCommand(check: Command, state: CommandState): void {
  const command = addResponseCacheOptions(
    addJsonlOptions(
      check
        .command('claims')
        .description(
          'MARCH claim check of RAG answers: rows {"id", "question", "documents", "answer"} -> {"id", "reward", "claims", ...}',
        ),
      { concurrency: 8 },
    ),
  )
    .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
    .option('-m, --model <name>', 'the model of every role not named by --proposer, --checker or --matcher')
    .option('--proposer <name>', 'the Proposer: splits the answer into claims (sees no documents)')
    .option(
      '--checker <name>',
      'the Checker: answers the claim questions from the documents (sees no answer)',
    )
    .option('--matcher <name>', 'the equivalence judge of --mode claims (default: --model, else the checker)')
    .addOption(
      new Option('--mode <mode>', 'which claims').choices(ClaimModeSchema.options).default('numeric'),
    )
    .addOption(
      new Option('--reward <name>', 'how the claim verdicts become the reward')
        .choices(ClaimAggregateSchema.options)
        .default('zero_tolerance'),
    )
    .option('-k, --k <n>', 'Checker runs per answer', positiveInt('--k'), 3)
    .addOption(
      new Option('--tie <rule>', 'what a tied claim is').choices(ClaimTieSchema.options).default('fault'),
    )
    .option('--safe-k <n>', 'K of SAFE F1@K: supported facts for full recall', positiveInt('--safe-k'), 64)
    .option('--pass-at <x>', 'fraction aggregates pass at or above this', numberIn('--pass-at', 0, 1), 0.5)
    .option(
      '--max-claims <n>',
      'claims checked at most (default 10 numeric, 20 claims)',
      positiveInt('--max-claims'),
    )
    .option('--reasks <n>', 're-asks after unreadable output, per call', integer('--reasks'), 2)
    .option(
      '--checker-temperature <t>',
      'Checker sampling temperature',
      numberIn('--checker-temperature', 0, 2),
      0.7,
    )
    .option('--seed <n>', 'Checker run i is sent seed + i', integer('--seed'), 0)
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
    .action(async (flags: CheckClaimsFlags) => {
      const { judgmentCost } = await import('../judgment-cost.js');
      const { ClaimDocumentsSchema, marchClaimCheck } = await import('../../judges/index.js');
      requireJsonlInput(flags);
      const roles = await openClaimRoleModels(flags, 'check claims');
      const totals = { answers: 0, claims: 0, faults: 0, calls: 0 };
      try {
        await runJsonlCommand(
          'check claims',
          flags,
          {
            schema: claimRowSchema(ClaimDocumentsSchema),
            idOf: (row) => row.id,
            handle: async (row) => {
              const judgment = await marchClaimCheck(
                { question: row.question, answer: row.answer, documents: row.documents ?? [] },
                {
                  proposer: roles.proposer,
                  checker: roles.checker,
                  matcher: roles.matcher,
                  mode: flags.mode,
                  aggregate: flags.reward,
                  k: flags.k,
                  tie: flags.tie,
                  safeK: flags.safeK,
                  passAt: flags.passAt,
                  reasks: flags.reasks,
                  checkerTemperature: flags.checkerTemperature,
                  seed: flags.seed,
                  ...(flags.maxClaims !== undefined && { maxClaims: flags.maxClaims }),
                },
              );
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
        await roles.close();
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
