import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { RewardKitError } from '../../core/index.js';
import { bufferedStateAccess } from '../../rl/buffered-state-access.js';
import {
  GROUP_METHOD_NAMES,
  GROUP_METHODS,
  type GroupMethodName,
  type GroupShaping,
  groupMethod,
  parseGroupOptions,
} from '../../rl/index.js';
import type { Store } from '../../store/index.js';
import { type BreakerFlags, breakerGuard, breakerOption, runSignal } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import {
  addDatasetInputOptions,
  DATASET_INPUT_HELP,
  type DatasetInputFlags,
  datasetInputOptions,
  refuseParquetOutput,
  requireDatasetInput,
} from '../dataset-input-flags.js';
import { addDeprecatedFlag } from '../deprecated-flag.js';
import { EXIT } from '../exit-codes.js';
import { positiveInt } from '../number-flags.js';
import { parseDuration } from '../parse-duration.js';
import { registerFitReferenceCommand } from './advantages-fit-reference.js';
import { readMethodOptions } from './advantages-options.js';
import type { ShapeJsonlGroupsOptions } from './shape-jsonl-groups.js';

interface AdvantagesFlags extends DatasetInputFlags, BreakerFlags {
  method?: GroupMethodName;
  input?: string;
  output?: string;
  options?: string;
  store?: string;
  stateKey: string;
  seed: number;
  models?: string;
  judgeModel?: string;
  judgeKind: string;
  cache: boolean;
  cacheTtl?: number;
  concurrency: number;
  report?: string;
}

/** An integer flag (the seed may be 0 or negative), with an error that names the flag. */
const integer = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`${flag} expects an integer, got "${value}".`);
  return n;
};

const METHODS_HELP = GROUP_METHOD_NAMES.map(
  (name) => `  ${name.padEnd(15)} ${GROUP_METHODS[name].description}`,
).join('\n');

const HELP = `
Methods:
${METHODS_HELP}

Rows, one group per line (extra keys are ignored):
  grpo, etr       {"group", "rewards": [number | null, ...]}
  brpo            {"group", "prompt", "responses": [string | null, ...]}   (needs --models and --judge-model)
  clipo           {"group", "rewards": [...], "hidden_states": [[number, ...] | null, ...], "correct"?: [bool, ...]}
  rfn, tri_factor {"group", "dims": [[number, ...] | null, ...]}           (one reward vector per rollout)
  afrl_stepwise   {"group", "step_rewards": [[number, ...] | null, ...]}   (one reward per step)
A null is a rollout that failed to score: it is left out of the group's statistics, gets
advantage 0 and is listed in "failed"; it is never read as a reward of 0.

Each output line: {"group", "method", "advantages", "failed", ...} plus, by method, "clip_bounds"
(etr), "filtered" and "shaped_rewards" (brpo), "shaped_rewards" (clipo), "weights" and
"shaped_rewards" (rfn, tri_factor), "step_advantages" (afrl_stepwise), and "detail".
A malformed or failed row is written as {"group"?, "line", "errors": ["file:line: field ...: ..."]},
also printed to stderr; the run goes on and exits 3. One summary line ends on stderr.
Lines stay in input order with --concurrency; clipo and tri_factor shape one group at a time.
${DATASET_INPUT_HELP}

Options (--options '{"std": "none"}' or a JSON/YAML file; unknown keys are errors), defaults:
  grpo           std unbiased (population | none = Dr.GRPO), eps 1e-6
  etr            eps_low 0.2, eps_high 0.2, alpha 0.5, beta 0.5, eps_min 0.02, eps_max 0.5,
                 std population, eps 1e-6, zone (pass-rate | variance), reward_range [0, 1]
  brpo           votes 1, skew_threshold 0.6
  clipo          tau 0.05, lambda 0.2, floor -0.5, variant infonce, output_dim 64, warmup_steps 10,
                 lr 1e-3, weight_decay 0.01, std, eps
  rfn            weights (default equal), reference {mu, sigma, delta} (default: the fitted one), std, eps
  tri_factor     priorities (required), targets 1, delta_w 0.05, ema_decay 0.9, mean_decay 0.9,
                 normalize reference | none, reference, std, eps

State: clipo (its head), rfn (frozen reference statistics, see "advantages fit-reference") and
tri_factor (EMA weights and means) keep documents in the store under "<kind>/<--state-key>", so
consecutive invocations with the same store and key continue one training run.

Examples:
  rewardkit advantages --method grpo --input groups.jsonl
  rewardkit advantages --method etr --options '{"alpha": 0.5, "beta": 0}' --input groups.jsonl -o adv.jsonl
  rewardkit advantages --method brpo --models models.yaml --judge-model judge --seed 7 --input groups.jsonl
  rewardkit advantages fit-reference --input ref.jsonl --state-key run-1
  rewardkit advantages --method rfn --state-key run-1 --input groups.jsonl`;

/** Methods that keep state under --state-key. */
const STATEFUL = new Set<string>(['clipo', 'rfn', 'tri_factor']);

/** Methods that cannot run without the store, given their options. */
function needsStore(method: string, options: unknown): boolean {
  if (method === 'clipo' || method === 'tri_factor') return true;
  return method === 'rfn' && (options as { reference?: unknown }).reference === undefined;
}

export function registerAdvantagesCommand(advantages: Command, state: CommandState): void {
  addDatasetInputOptions(advantages)
    .addOption(new Option('--method <name>', 'the group method').choices(GROUP_METHOD_NAMES))
    .option(
      '-i, --input <path>',
      'groups: JSONL, JSON array, Parquet or a dataset folder ("-": JSONL on stdin)',
    )
    .option('-o, --output <file>', 'write the lines to this file (default: stdout)')
    .option('--options <json|file>', "the method's options: inline JSON or a JSON/YAML file")
    .option(
      '--store <path>',
      'SQLite store for method state and cached judge answers, or "none" (default: $REWARDKIT_STORE or .rewardkit/store.sqlite)',
    )
    .option('--state-key <key>', 'names the state documents of one training run', 'default')
    .option('--seed <n>', 'seeds BRPO references and CLIPO draws, with each group id', integer('--seed'), 0)
    .option('--models <file>', 'models file, for brpo (default: $REWARDKIT_MODELS)')
    .addOption(breakerOption())
    .option('--judge-model <name>', "brpo's pairwise judge: a model name from the models file")
    .option(
      '--judge-kind <kind>',
      "which pairwise judge kind brpo's model runs: any judge kind that compares pairs (rewardkit judge --help lists them)",
      'genrm',
    )
    .option('--no-cache', 'call the judge even for requests already answered in the store')
    .option(
      '--cache-ttl <duration>',
      'judge answers older than this are asked again',
      parseDuration('--cache-ttl'),
    )
    .option(
      '-c, --concurrency <n>',
      'groups shaped at once (brpo: judged at once); clipo and tri_factor need 1',
      positiveInt('--concurrency'),
      1,
    )
    .option(
      '--report <file>',
      'also write one self-contained HTML file: counts, stats and histograms of advantages, rewards and clip bounds, the first groups',
    )
    .addHelpText('after', HELP)
    .action(async (flags: AdvantagesFlags) => {
      // Checked here, not as commander choices: listing the judge kinds loads the spec registry,
      // which the other methods never need at start-up.
      if (flags.judgeKind !== 'genrm') {
        const { pairwiseJudgeNames } = await import('../pairwise-judge-of.js');
        const names = pairwiseJudgeNames();
        if (!names.includes(flags.judgeKind))
          throw new RewardKitError(
            'RK_USAGE',
            `option '--judge-kind <kind>' argument '${flags.judgeKind}' is invalid. Allowed choices are ${names.join(', ')}.`,
          );
      }
      if (flags.method === undefined)
        throw new RewardKitError('RK_USAGE', 'advantages needs --method <name>');
      if (flags.input === undefined) throw new RewardKitError('RK_USAGE', 'advantages needs --input <file>');
      if (flags.method === 'brpo' && flags.judgeModel === undefined)
        throw new RewardKitError(
          'RK_USAGE',
          'brpo needs a pairwise judge: --models <file> --judge-model <model name>',
        );
      if (flags.method !== 'brpo' && flags.judgeModel !== undefined)
        throw new RewardKitError('RK_USAGE', '--judge-model applies to --method brpo only');
      // Each clipo and tri_factor group steps the run's state, so groups must go one by one, in order.
      if (flags.concurrency > 1 && (flags.method === 'clipo' || flags.method === 'tri_factor'))
        throw new RewardKitError(
          'RK_USAGE',
          `${flags.method} shapes groups one at a time, in order: drop --concurrency`,
        );
      const method = groupMethod(flags.method);
      const options = parseGroupOptions(flags.method, readMethodOptions(flags.options));
      requireDatasetInput(flags.input);
      refuseParquetOutput('rewardkit advantages', flags.output);
      const storeNeeded = needsStore(flags.method, options);
      const { openStoreFromFlag } = await import('../store-location.js');
      const store =
        storeNeeded || (flags.method === 'brpo' && flags.cache)
          ? await openStoreFromFlag(flags.store)
          : undefined;
      if (storeNeeded && !store)
        throw new RewardKitError(
          'RK_USAGE',
          `${flags.method} keeps state between invocations: it needs a store, not --store none`,
        );
      // A run's state is read once and written back at the end (also after Ctrl-C or a failure),
      // not once per group: a CLIPO head is a megabyte of JSON.
      const runState = store && bufferedStateAccess(store);
      try {
        // The GenRM takes BRPO's votes itself: each vote is then its own request variant, where
        // repeating one request would have the response cache answer every vote with the first.
        // Other judge kinds leave the votes to BRPO.
        const judgeVotes = flags.method === 'brpo' && flags.judgeKind === 'genrm';
        const votes = judgeVotes ? (options as { votes: number }).votes : 1;
        const judge = flags.method === 'brpo' ? await openBrpoJudge(flags, store, votes, state) : undefined;
        await runAdvantages(flags as Required<Pick<AdvantagesFlags, 'input'>> & AdvantagesFlags, state, {
          method,
          reportOptions: options,
          options: judgeVotes ? { ...(options as object), votes: 1 } : options,
          context: {
            ...(runState && { state: runState }),
            stateKey: flags.stateKey,
            seed: flags.seed,
            ...(judge && { judge }),
          },
        });
      } finally {
        try {
          await runState?.flush();
        } finally {
          await store?.close();
        }
      }
    });
  // `--judge` names a judge kind elsewhere (`judge pairwise`, `bench`); the model flag has its own name.
  addDeprecatedFlag(advantages, {
    flags: '--judge <name>',
    replacement: '--judge-model',
    apply: (value) => [['judgeModel', value]],
  });
  registerFitReferenceCommand(advantages, state);
}

/** BRPO's pairwise judge (`--judge-kind`) over the named model, answered from the store's response cache when there is one. */
async function openBrpoJudge(
  flags: AdvantagesFlags,
  store: Store | undefined,
  votes: number,
  state: CommandState,
) {
  const { loadConfiguredModels, pickModel, requireModelsReady } = await import('../models-location.js');
  const { withResponseCache } = await import('../../llm/index.js');
  const { pairwiseJudgeOf } = await import('../pairwise-judge-of.js');
  const model = pickModel(
    await loadConfiguredModels(flags.models, breakerGuard(flags, state)),
    flags.judgeModel as string,
    'advantages --method brpo',
  );
  await requireModelsReady([model]);
  const cached = store
    ? withResponseCache(model, store, flags.cacheTtl === undefined ? {} : { ttlMs: flags.cacheTtl })
    : model;
  return pairwiseJudgeOf(
    flags.judgeKind,
    cached,
    { both_orders: true, ...(flags.judgeKind === 'genrm' && { votes }) },
    '--judge-kind',
  );
}

async function runAdvantages(
  flags: AdvantagesFlags & { input: string },
  state: CommandState,
  {
    reportOptions,
    ...run
  }: Pick<ShapeJsonlGroupsOptions, 'method' | 'options' | 'context'> & {
    /** The options as the user set them (with defaults), for the report. */
    reportOptions: unknown;
  },
): Promise<void> {
  const { shapeJsonlGroups } = await import('./shape-jsonl-groups.js');
  const report = flags.report ? (await import('../../rl/index.js')).createShapingSummary() : undefined;
  const fromStdin = flags.input === '-';
  const toFile = flags.output !== undefined && flags.output !== '-';
  const output = toFile ? createWriteStream(flags.output as string) : process.stdout;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const summary = await shapeJsonlGroups({
      ...run,
      input: fromStdin ? process.stdin : flags.input,
      inputName: fromStdin ? '<stdin>' : flags.input,
      ...datasetInputOptions(flags),
      output,
      concurrency: flags.concurrency,
      signal: runSignal(controller.signal, state),
      onFailed: (line) => {
        report?.addFailed(line);
        for (const error of line.errors) process.stderr.write(`rewardkit: ${error}\n`);
      },
      ...(report && { onShaped: (row: unknown, shaping: GroupShaping) => report.add(row, shaping) }),
    });
    if (toFile) {
      output.end();
      await once(output, 'finish');
    }
    if (report && flags.report) {
      const { advantagesReportHtml } = await import('../../view/index.js');
      await writeFile(
        flags.report,
        advantagesReportHtml({
          method: run.method.name,
          options: reportOptions,
          input: fromStdin ? '<stdin>' : flags.input,
          output: toFile ? (flags.output as string) : '<stdout>',
          seed: flags.seed,
          ...(flags.method && STATEFUL.has(flags.method) && { stateKey: flags.stateKey }),
          interrupted: summary.interrupted,
          summary: report.summary(),
        }),
      );
    }
    const stopped = summary.interrupted ? '; interrupted' : '';
    const reported = flags.report ? `; report ${flags.report}` : '';
    process.stderr.write(
      `rewardkit advantages: ${summary.groups} groups, ${summary.ok} ok, ${summary.failed} failed; output ${toFile ? flags.output : '<stdout>'}${reported}${stopped}\n`,
    );
    state.exitCode = summary.interrupted ? EXIT.interrupted : summary.failed > 0 ? EXIT.rowsFailed : EXIT.ok;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
