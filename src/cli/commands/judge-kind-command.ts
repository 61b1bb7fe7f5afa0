import type { Command } from 'commander';
import { RewardKitError } from '../../core/index.js';
import type { JudgeKind } from '../../spec/index.js';
import type { CommandState } from '../command-state.js';
import { DATASET_INPUT_HELP, requireDatasetInput } from '../dataset-input-flags.js';
import { addDeprecatedAlias } from '../deprecated-command.js';
import { addParamFlags, type ParamFlag, paramFlags, paramsFromFlags } from '../params-flags.js';
import { addScoringOptions, requireOutput, runScoring, type ScoringFlags } from '../scoring-run.js';
import { type BenchRowsMode, benchRowsModeOf } from './bench-rows-mode.js';
import { JUDGE_CACHE_HELP, storedRunHelp } from './judge-model.js';

/** The flags of the scoring run itself, which no param may shadow. */
const SCORING_FLAGS = new Set([
  '--input',
  '--output',
  '--concurrency',
  '--store',
  '--resume',
  '--progress',
  '--summary',
  '--models',
  '--cache',
  '--cache-ttl',
  '--format',
  '--map',
  '--split',
  '--traces',
  '--no-traces',
  '--report',
  '--bench-rows',
  '--bench-report',
  '--max-consecutive-failures',
  '--help',
]);

/** The scoring run's flags that mean nothing over benchmark rows, by option attribute. */
const SCORING_ONLY: ReadonlyArray<readonly [attribute: string, flag: string]> = [
  ['progress', '--no-progress'],
  ['summary', '--summary'],
  ['report', '--report'],
  ['traces', '--no-traces'],
];

type JudgeKindFlags = Omit<ScoringFlags, 'output'> & {
  output?: string;
  benchRows?: boolean;
  benchReport?: string;
};

/**
 * `rewardkit judge <kind>`: the judge kind as a one-source spec over a dataset, run by the same
 * runner as `score` (resume, concurrency, the store, the response cache, progress, summary), with
 * one flag per param of the kind under the param's own name, help from the params' docs. A kind
 * whose benchmark has rows of its own reads them with `--bench-rows`: the one door to the judge.
 */
export function registerJudgeKindCommand(judge: Command, kind: JudgeKind, state: CommandState): void {
  const command = judge.command(kind.kind).description(`${kind.description} (spec kind "${kind.kind}")`);
  // `judge medical-rubric` still runs it, deprecated, unless an old row command has that name (`judge tool-plan`).
  const dashed = kind.kind.replaceAll('_', '-');
  if (dashed !== kind.kind && !judge.commands.some((c) => c.name() === dashed))
    addDeprecatedAlias(command, dashed);
  const rows = benchRowsModeOf(kind);
  addScoringOptions(command, { code: false, outputOptional: rows !== undefined });
  const flags = paramFlags(kind.params, SCORING_FLAGS);
  addParamFlags(command, flags);
  if (rows !== undefined) {
    command.option(
      '--bench-rows',
      "read the benchmark's own rows and write one judgment line per row in its terms (see below), instead of samples and RewardResults",
    );
    if (rows.reportFile)
      command.option('--bench-report <file>', 'with --bench-rows: also write the report as JSON');
  }
  command
    .addHelpText(
      'after',
      `
Runs the "${kind.kind}" judge as the spec {sources: [{kind: ${kind.kind}, params}]} would, the
params coming from the flags above (--truncation-essential-ratio is params.truncation.essential_ratio).
Each output line is a RewardResult, as \`rewardkit score\` writes it: "reward" is the judge's score,
"evidence[0].detail" its full judgment (every call's usage in "evidence[0].usage"). A sample the judge
could not judge is written with "status": "failed" and the reason, never a score.

Input rows: {"id"?, "prompt"?, "response", "reference"?, "group"?, "metadata"?}, or a multi-turn
session as "messages": [{role, content}, ...] whose last, assistant turn is the response; this judge reads
${kind.judge.reads}.
${DATASET_INPUT_HELP}
${rows === undefined ? '' : benchRowsHelp(rows)}
Examples:
${[...kind.judge.examples, ...(rows === undefined ? [] : [benchRowsExample(rows)])].map((line) => `  rewardkit judge ${kind.kind} ${line}`).join('\n')}`,
    )
    .action(async (options: JudgeKindFlags) => {
      if (rows !== undefined && options.benchRows === true) {
        await runBenchRows(kind, rows, flags, command, options, state);
        return;
      }
      if (options.benchReport !== undefined)
        throw new RewardKitError('RK_USAGE', '--bench-report applies with --bench-rows only');
      requireOutput(options);
      requireDatasetInput(options.input);
      const params = paramsFromFlags(kind.params, flags, command);
      const { parseSpec } = await import('../../spec/index.js');
      const name = `judge:${kind.kind}`;
      const spec = parseSpec(JSON.stringify({ name, sources: [{ kind: kind.kind, params }] }), name);
      await runScoring(spec, name, options, state);
    });
}

/** A command line, without `rewardkit judge <kind>`, that runs the judge over its benchmark's rows. */
function benchRowsExample(rows: BenchRowsMode): string {
  return `--bench-rows --models models.yaml --model judge --input rows.jsonl -o judged.jsonl${rows.reportFile ? ' --bench-report report.json' : ''}`;
}

/** The `--help` part on `--bench-rows`. */
function benchRowsHelp(rows: BenchRowsMode): string {
  const omitted = rows.omit.map((param) => `--${param.replaceAll('_', '-')}`);
  return `
With --bench-rows, the same judge reads the benchmark's own rows instead of samples, and writes one
line per row in the benchmark's terms (rows judged ${rows.concurrency} at once unless -c says otherwise;
printed when there is no -o). ${[...SCORING_ONLY.map(([, flag]) => flag), ...omitted].join(', ')} apply to samples only.
${rows.help}
Rerunning with the same --output skips ids already written there (--no-resume starts over). A
malformed row, a repeated id or a row that fails is written as {"id", "error"}, never dropped. One
summary line goes to stderr; exit code 3 when any row failed.
${JUDGE_CACHE_HELP}${rows.storesRun ? `\n${storedRunHelp('judge')}` : ''}
`;
}

/** `judge <kind> --bench-rows`: the kind over its benchmark's rows, refusing what only samples use. */
async function runBenchRows(
  kind: JudgeKind,
  rows: BenchRowsMode,
  flags: readonly ParamFlag[],
  command: Command,
  options: JudgeKindFlags,
  state: CommandState,
): Promise<void> {
  const given = (attribute: string) => command.getOptionValueSource(attribute) === 'cli';
  const refused = [
    ...SCORING_ONLY.filter(([attribute]) => given(attribute)).map(([, flag]) => flag),
    ...flags
      .filter((f) => rows.omit.includes(f.path[0] as string) && given(f.option.attributeName()))
      .map((f) => f.flag),
  ];
  if (refused.length > 0)
    throw new RewardKitError(
      'RK_USAGE',
      `${refused.join(', ')} cannot be combined with --bench-rows (they apply to samples)`,
    );
  const params = kind.params.parse(paramsFromFlags(kind.params, flags, command));
  const { benchReport, ...run } = options;
  await rows.run(
    params,
    {
      ...run,
      concurrency: given('concurrency') ? options.concurrency : rows.concurrency,
      ...(benchReport !== undefined && { reportFile: benchReport }),
    },
    `judge ${kind.kind}`,
    state,
  );
}
