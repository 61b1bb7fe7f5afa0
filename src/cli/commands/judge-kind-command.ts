import type { Command } from 'commander';
import type { JudgeKind } from '../../spec/index.js';
import type { CommandState } from '../command-state.js';
import { DATASET_INPUT_HELP, requireDatasetInput } from '../dataset-input-flags.js';
import { addParamFlags, paramFlags, paramsFromFlags } from '../params-flags.js';
import { addScoringOptions, runScoring, type ScoringFlags } from '../scoring-run.js';

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
  '--max-consecutive-failures',
  '--help',
]);

/**
 * `rewardkit judge <kind>`: the judge kind as a one-source spec over a dataset, run by the same
 * runner as `score` (resume, concurrency, the store, the response cache, progress, summary), with
 * one flag per param of the kind under the param's own name, help from the params' docs.
 */
export function registerJudgeKindCommand(judge: Command, kind: JudgeKind, state: CommandState): void {
  const command = judge.command(kind.kind).description(`${kind.description} (spec kind "${kind.kind}")`);
  // `judge medical-rubric` too, unless a row-format command already has that name (`judge tool-plan`).
  const dashed = kind.kind.replaceAll('_', '-');
  if (dashed !== kind.kind && !judge.commands.some((c) => c.name() === dashed)) command.alias(dashed);
  addScoringOptions(command, { code: false });
  const flags = paramFlags(kind.params, SCORING_FLAGS);
  addParamFlags(command, flags);
  command
    .addHelpText(
      'after',
      `
Runs the "${kind.kind}" judge as the spec {sources: [{kind: ${kind.kind}, params}]} would, the
params coming from the flags above (--truncation-essential-ratio is params.truncation.essential_ratio).
Each output line is a RewardResult, as \`rewardkit score\` writes it: "reward" is the judge's score,
"evidence[0].detail" its full judgment (every call's usage in "evidence[0].usage"). A sample the judge
could not judge is written with "status": "failed" and the reason, never a score.

Input rows: {"id"?, "prompt"?, "response", "reference"?, "group"?, "metadata"?}; this judge reads
${kind.judge.reads}.
${DATASET_INPUT_HELP}

Examples:
${kind.judge.examples.map((line) => `  rewardkit judge ${kind.kind} ${line}`).join('\n')}`,
    )
    .action(async (options: ScoringFlags) => {
      requireDatasetInput(options.input);
      const params = paramsFromFlags(kind.params, flags, command);
      const { parseSpec } = await import('../../spec/index.js');
      const name = `judge:${kind.kind}`;
      const spec = parseSpec(JSON.stringify({ name, sources: [{ kind: kind.kind, params }] }), name);
      await runScoring(spec, name, options, state);
    });
}
