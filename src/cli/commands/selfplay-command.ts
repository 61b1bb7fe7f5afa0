import { existsSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { RewardKitError } from '../../core/index.js';
import { type BreakerFlags, breakerGuard, breakerOption, withholdOnceOpen } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag } from '../deprecated-flag.js';
import { EXIT } from '../exit-codes.js';
import { loadConfiguredModels, pickModel, requireModelsReady } from '../models-location.js';
import { finiteNumber, nonNegativeInt, positiveInt } from '../number-flags.js';

interface SelfplayFlags extends BreakerFlags {
  seeds: string;
  corpus?: string;
  retrieverUrl?: string;
  retrieverTimeout: number;
  models?: string;
  proposer: string;
  solver?: string;
  judgeModel: string;
  rounds: number;
  output: string;
  searches: number;
  rollouts: number;
  topk: number;
  maxTurns: number;
  reward: 'inverse' | 'balanced';
  formatPenalty: number;
  distractors: number;
  temperature?: number;
  seed: number;
  concurrency: number;
  resume: boolean;
}

export function registerSelfplayCommand(selfplay: Command, state: CommandState): void {
  selfplay
    .requiredOption(
      '--seeds <file>',
      'seed answers, one JSON object per line: {"id", "answer", "aliases"?, "searches"?}',
    )
    .option('--corpus <dir>', 'search the embedded BM25 index in this directory (rewardkit index build)')
    .option(
      '--retriever-url <url>',
      'search an HTTP retriever: POST {queries, topk} -> {result: [[{document: {contents}, score}]]}',
    )
    .option(
      '--retriever-timeout <ms>',
      'per-request timeout of --retriever-url',
      positiveInt('--retriever-timeout'),
      10_000,
    )
    .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
    .addOption(breakerOption())
    .option('--proposer <name>', 'the policy model that proposes questions', 'policy')
    .option('--solver <name>', 'the policy model that solves them (default: the --proposer model)')
    .option('--judge-model <name>', 'the model for the RAG check and answer equivalence', 'judge')
    .option('--rounds <n>', 'rounds over all seeds', positiveInt('--rounds'), 1)
    .requiredOption('-o, --output <dir>', 'writes rewards.jsonl and tasks.jsonl here; a rerun resumes')
    .option('--searches <n>', 'searches asked of the proposer per question', positiveInt('--searches'), 3)
    .option('--rollouts <n>', 'solver rollouts per verified question', positiveInt('--rollouts'), 5)
    .option('-k, --topk <n>', 'documents per search', positiveInt('--topk'), 3)
    .option('--max-turns <n>', 'model calls per episode at most', positiveInt('--max-turns'), 10)
    .addOption(
      new Option('--reward <mode>', 'proposer reward: 1 - s (inverse) or 4s(1 - s) (balanced)')
        .choices(['inverse', 'balanced'])
        .default('inverse'),
    )
    .option(
      '--format-penalty <x>',
      'proposer reward for a rejected question',
      finiteNumber('--format-penalty'),
      -1,
    )
    .option(
      '--distractors <n>',
      'document blocks from other trajectories in the RAG check',
      nonNegativeInt('--distractors'),
      4,
    )
    .option(
      '--temperature <t>',
      'sampling temperature of the policy (default: the backend default)',
      finiteNumber('--temperature'),
    )
    .option('--seed <n>', 'seeds the distractor shuffle and the sampling seeds', nonNegativeInt('--seed'), 0)
    .option('-c, --concurrency <n>', 'seeds handled at once', positiveInt('--concurrency'), 4)
    .option('--no-resume', 'start over instead of skipping records already in --output')
    .addHelpText(
      'after',
      `
Per seed and round: the proposer searches (<search>query</search>, results in <information>) and
writes a question in <question>…</question>. The question is rejected when it is shorter than 10
characters, longer than 1000 or under 10 words (counted by script, so Chinese works), contains the
answer, rests on no retrieved document, used fewer than 2 searches or repeated one, or fails the
RAG check: the judge, given the question, every document the proposer retrieved and
--distractors blocks from other seeds' searches, must reach the answer (exact match, then an
equivalence judgment). Any failure of the check rejects the question. A verified question gets
--rollouts solver episodes (<search>/<information>/<answer>, at most --max-turns calls); each
scores 1 when its last answer matches (exact, then the judge), 0 otherwise or without an answer,
divided by 4 with more than 10 answer tags. s = the share of rollouts scoring above 0; the
proposer earns 1 - s (or 4s(1 - s)), and --format-penalty for a rejected question.

Output: <dir>/rewards.jsonl, one record per seed and round ({"id": "round:seed", "status":
"verified" | "rejected" | "failed", "question", "rejections", "proposer_reward", "solve_rate",
"solver_rewards", "proposer", "rollouts", "usage", …}, transcripts included) and <dir>/tasks.jsonl,
the problem pool of distinct verified questions. "failed" means a backend or retriever failure,
with "error" and no reward. One summary line on stderr; exit code 3 when any record failed.

Examples:
  rewardkit index build --corpus examples/corpus/corpus.jsonl --out idx/
  rewardkit selfplay --seeds examples/selfplay/seeds.jsonl --corpus idx/ --models models.yaml \\
    --proposer policy --judge-model judge --rounds 2 --output ssp/`,
    )
    .action(async (flags: SelfplayFlags) => {
      if ((flags.corpus === undefined) === (flags.retrieverUrl === undefined))
        throw new RewardKitError(
          'RK_USAGE',
          'selfplay needs exactly one of --corpus <index dir> or --retriever-url <url>',
        );
      if (!existsSync(flags.seeds))
        throw new RewardKitError('RK_USAGE', `Seeds file not found: ${flags.seeds}`);
      const { createBm25Retriever, createHttpRetriever, readBm25Index } = await import(
        '../../retrieval/index.js'
      );
      const retriever =
        flags.corpus !== undefined
          ? createBm25Retriever(readBm25Index(flags.corpus).index)
          : createHttpRetriever({ url: flags.retrieverUrl as string, timeoutMs: flags.retrieverTimeout });
      const configured = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
      const proposer = pickModel(configured, flags.proposer, 'selfplay');
      const models = {
        proposer,
        solver: flags.solver === undefined ? proposer : pickModel(configured, flags.solver, 'selfplay'),
        judge: pickModel(configured, flags.judgeModel, 'selfplay'),
      };
      await requireModelsReady(Object.values(models));
      const { runSelfplay } = await import('../../selfplay/index.js');
      const summary = await runSelfplay({
        seedsFile: flags.seeds,
        outputDir: flags.output,
        rounds: flags.rounds,
        models,
        retriever,
        resume: flags.resume,
        searches: flags.searches,
        rollouts: flags.rollouts,
        topk: flags.topk,
        maxTurns: flags.maxTurns,
        reward: flags.reward,
        formatPenalty: flags.formatPenalty,
        distractors: flags.distractors,
        seed: flags.seed,
        concurrency: flags.concurrency,
        ...(flags.temperature !== undefined && { temperature: flags.temperature }),
        // A seed that failed once the breaker had opened was not played: a rerun plays it.
        withhold: withholdOnceOpen(state, (record) => record.status === 'failed'),
      });
      for (const warning of summary.warnings)
        process.stderr.write(`rewardkit selfplay: warning: ${warning}\n`);
      const mean = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
      process.stderr.write(
        `rewardkit selfplay: ${summary.rounds} round(s) × ${summary.seeds} seeds: ${summary.verified} verified, ${summary.rejected} rejected, ${summary.failed} failed, ${summary.skipped} skipped${summary.unwritten > 0 ? `, ${summary.unwritten} not written (failed after the backend went down: a rerun plays them)` : ''}; pool ${summary.pool} tasks; mean proposer reward ${mean(summary.meanProposerReward)}, mean solve rate ${mean(summary.meanSolveRate)}; output ${flags.output}\n`,
      );
      if (summary.failed > 0) state.exitCode = EXIT.rowsFailed;
    });
  // `--judge` names a judge kind elsewhere (`judge pairwise`, `bench`); the model flag has its own name.
  addDeprecatedFlag(selfplay, {
    flags: '--judge <name>',
    replacement: '--judge-model',
    apply: (value) => [['judgeModel', value]],
  });
}
