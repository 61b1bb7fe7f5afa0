import { readFileSync, writeFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { RewardKitError } from '../../core/index.js';
import type { RubricQualityFailure, RubricQualityRecord } from '../../judges/proxy-grm/index.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { nonNegativeInt } from '../number-flags.js';
import {
  addJsonlOptions,
  JSONL_OUTPUT_HELP,
  type JsonlCommandFlags,
  runJsonlCommand,
} from './jsonl-command.js';
import { addResponseCacheOptions, openJudgeServices } from './judge-model.js';
import { type ProducerFlags, producerFlagProblems, RUBRIC_PRODUCERS } from './rubric-producers.js';

interface QualityFlags extends JsonlCommandFlags, ProducerFlags {
  producer: string;
  models?: string;
  model: string;
  proxyModel: string;
  proxyOrders: '1' | '2';
  seed: number;
  summary?: string;
  store?: string;
  cache: boolean;
  cacheTtl?: number;
  maxConsecutiveFailures: number;
}

/** Adds `rubrics quality` to the `rubrics` command. */
export function registerRubricsQualityCommand(rubrics: Command, state: CommandState): void {
  const command = rubrics
    .command('quality')
    .description(
      "Score a rubric producer's rubrics by proxy (Proxy-GRM): a proxy judge that sees only the rubric predicts each labelled pair's preference.",
    )
    .addOption(
      new Option('--producer <name>', 'whose rubrics to score')
        .choices(Object.keys(RUBRIC_PRODUCERS))
        .makeOptionMandatory(),
    )
    .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
    .requiredOption('-m, --model <name>', "the producer's model: a model name from the models file")
    .requiredOption('--proxy-model <name>', 'the proxy judge: a model name from the models file')
    .option(
      '--rubrics <file>',
      'QuarkMedBench rubrics by pair id (needed by, and only by, --producer medical)',
    )
    .option(
      '--rubric-file <file>',
      'the rubric judge: the rubric (YAML or JSON) every pair is graded by (needed by, and only by, --producer rubric)',
    )
    .option('--meta-rubric <file>', 'OpenRS: the meta-rubric (default: the shipped one)')
    .option('--domains <dir>', 'OpenRS: the domain pools (default: the shipped ones)')
    .addOption(
      new Option(
        '--proxy-orders <n>',
        'ask the proxy in both orders (2: it must agree with itself) or once (1)',
      )
        .choices(['1', '2'])
        .default('2'),
    )
    .option(
      '--seed <n>',
      "seeds which position each pair's chosen response is shown in",
      nonNegativeInt('--seed'),
      0,
    )
    .option('--summary <file>', 'also write the aggregate (JSON) here');
  addResponseCacheOptions(addJsonlOptions(command, { concurrency: 4 }))
    .addHelpText(
      'after',
      `
Input: labelled pairs, {id, prompt, chosen, rejected} or {id, prompt, first, second, label}. Each
pair is shown with its chosen response first or second (seeded per pair id). The producer writes
its rubric, evaluation and verdict for the pair as shown; the proxy is given the rubric, the
request and the two responses, never the evaluation or the verdict, and predicts the preference.

Per pair: {id, producer, label, rubric, verdict, evaluation, proxy, terms: {acc, proxy, format},
rewards: {sum, gated, gated_mismatch, gated_strict}, proxy_transport_failure, usage}. acc is +1 iff
the producer's verdict names the chosen response alone; proxy is +1/-1 likewise, 0 when its calls
got no answer (counted apart, never read as wrong); format is 1 when every part of the producer's
output was read. A pair with no rubric to score is {id, producer, error,
producer_transport_failure}. The summary (stderr, and --summary) gives the producer's and the
proxy's accuracy, the format rate and each combiner's mean reward with 95% bootstrap intervals.
${JSONL_OUTPUT_HELP}
Examples:
  rewardkit rubrics quality --producer genrm --models models.yaml -m judge --proxy-model proxy \\
    --input pairs.jsonl --output quality.jsonl --summary quality-summary.json
  rewardkit rubrics quality --producer medical --rubrics rubrics.jsonl --models models.yaml \\
    -m judge --proxy-model proxy --input pairs.jsonl --output quality.jsonl`,
    )
    .action(async (flags: QualityFlags) => {
      await runRubricsQuality(flags, state);
    });
}

async function runRubricsQuality(flags: QualityFlags, state: CommandState): Promise<void> {
  const problems = producerFlagProblems(flags.producer, flags);
  if (problems.length > 0) throw new RewardKitError('RK_USAGE', problems.join('; '));
  const [proxyGrm, { PairwiseRowSchema }, { itemRng }] = await Promise.all([
    import('../../judges/proxy-grm/index.js'),
    import('../../bench/datasets/pairwise.js'),
    import('../../bench/item-rng.js'),
  ]);
  const producer = await (RUBRIC_PRODUCERS[flags.producer] as (typeof RUBRIC_PRODUCERS)[string]).create(
    flags,
  );
  const { services, close } = await openJudgeServices(
    flags,
    [flags.model, flags.proxyModel],
    'rubrics quality',
    state,
  );
  const handled: Array<RubricQualityRecord | RubricQualityFailure> = [];
  try {
    const summary = await runJsonlCommand(
      'rubrics quality',
      flags,
      {
        schema: PairwiseRowSchema,
        autoId: false,
        idOf: (row) => row.id,
        handle: async (row) => {
          const scored = await proxyGrm.scoreRubricQuality(row, {
            producer,
            producerModel: services.model(flags.model),
            proxy: { model: services.model(flags.proxyModel), bothOrders: flags.proxyOrders === '2' },
            chosenFirst: itemRng(flags.seed, row.id).next() < 0.5,
            ...(state.breaker && { signal: state.breaker.signal }),
          });
          // Once the backend is found down, a proxy that got no answer was not really asked: the
          // row is failed, so it is not written and a rerun scores it.
          if (!('error' in scored) && scored.proxy_transport_failure && state.breaker?.opened)
            throw state.breaker.opened;
          handled.push(scored);
          return { ...scored };
        },
      },
      state,
    );
    const records = flags.output !== undefined && flags.output !== '-' ? readRecords(flags.output) : handled;
    const aggregate = { producer: flags.producer, ...proxyGrm.summarizeRubricQuality(records, flags.seed) };
    if (flags.summary !== undefined) {
      writeFileSync(flags.summary, `${JSON.stringify(aggregate, null, 2)}\n`);
    }
    process.stderr.write(formatAggregate(aggregate));
    if (!summary.interrupted && aggregate.proxy_transport_failures > 0 && state.exitCode === EXIT.ok)
      state.exitCode = EXIT.rowsFailed;
  } finally {
    await close();
  }
}

/** Every scored or failed pair in the output, this run's and earlier runs' alike (input errors carry no producer). */
function readRecords(path: string): Array<RubricQualityRecord | RubricQualityFailure> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        const value = JSON.parse(line) as Record<string, unknown>;
        return typeof value.producer === 'string'
          ? [value as unknown as RubricQualityRecord | RubricQualityFailure]
          : [];
      } catch {
        // A line cut short by a killed run: the resume reader has warned about it already, and
        // a rerun scores that pair again; the summary covers the pairs the file holds whole.
        return [];
      }
    });
}

type Aggregate = ReturnType<typeof import('../../judges/proxy-grm/index.js').summarizeRubricQuality>;

function formatAggregate(a: Aggregate & { producer: string }): string {
  const figure = (m: { mean: number | null; ci95: [number, number] | null; n: number }, digits = 3) =>
    m.mean === null
      ? `— (n=0)`
      : `${m.mean.toFixed(digits)} [${(m.ci95 as [number, number]).map((x) => x.toFixed(digits)).join(', ')}] (n=${m.n})`;
  return [
    `rubric quality (${a.producer}): ${a.scored} of ${a.pairs} pairs scored, ${a.failed} failed (${a.producer_transport_failures} producer transport failures), ${a.proxy_transport_failures} proxy transport failures`,
    `  proxy accuracy (rubric quality): ${figure(a.proxy_accuracy)}`,
    `  producer accuracy: ${figure(a.producer_accuracy)}`,
    `  format rate: ${figure(a.format_rate)}`,
    ...Object.entries(a.rewards).map(([name, m]) => `  reward ${name}: ${figure(m)}`),
    '',
  ].join('\n');
}
