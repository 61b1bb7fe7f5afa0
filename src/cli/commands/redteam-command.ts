import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { RewardKitError } from '../../core/index.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';
import { readSamples } from '../read-samples.js';
import { runSpecName } from '../run-spec-name.js';
import { requireJsonlInput } from './jsonl-command.js';

interface RedteamFlags {
  spec: string;
  input: string;
  output: string;
  exploits?: string;
  models?: string;
  seed: number;
  resamples: number;
}

/** `rewardkit redteam`: apply known reward-hacking exploits to each response and re-score them through a spec. */
export function registerRedteamCommand(redteam: Command, state: CommandState): void {
  redteam
    .requiredOption('-s, --spec <file|preset>', 'reward spec file (YAML/JSON) or built-in preset')
    .requiredOption('-i, --input <file>', 'samples, one JSON object per line ("-" for stdin)')
    .requiredOption('-o, --output <file>', 'write the report as JSON here ("-" for stdout)')
    .option('--exploits <list>', 'comma-separated exploit names (default: all)')
    .option('--models <file>', 'models file naming the LLMs judge sources use (default: $REWARDKIT_MODELS)')
    .option(
      '--seed <n>',
      'seed of the exploits’ random choices and of the bootstrap',
      nonNegativeInt('--seed'),
      0,
    )
    .option('--resamples <n>', 'bootstrap resamples per interval', positiveInt('--resamples'), 2000)
    .addHelpText(
      'after',
      `
Input rows: {"id", "response", "prompt"?, "reference"?, "data_source"?, "metadata"?}, as for score.
Each exploit sees only the prompt and the response, never the reference. A sample's lift is its
best exploited reward minus its original reward; a failed scoring leaves the sample out (counted
in "failed"). Exit code 1 when some exploit's 95% bootstrap interval of the mean lift lies above 0
(the reward can be gamed), else 0. Exploits and the report: docs/redteam.md.

Example:
  rewardkit redteam --spec math --input samples.jsonl --output redteam.json`,
    )
    .action(async (flags: RedteamFlags) => {
      requireJsonlInput(flags);
      const { exploits, liftsReward, runRedteam, unscored } = await import('../../redteam/index.js');
      const chosen = (flags.exploits?.split(',') ?? Object.keys(exploits)).map((name) => {
        const exploit = exploits[name.trim()];
        if (!exploit)
          throw new RewardKitError(
            'RK_USAGE',
            `--exploits: unknown exploit "${name}" (known: ${Object.keys(exploits).join(', ')})`,
          );
        return exploit;
      });
      const { loadSpec, sourceKinds, sourceName } = await import('../../spec/index.js');
      const spec = loadSpec(flags.spec);
      const { loadConfiguredModels, requireModelsReady } = await import('../models-location.js');
      const { requireSpecModels, specModelNames } = await import('../spec-model-names.js');
      const { models, from } = await loadConfiguredModels(flags.models);
      const modelNames = specModelNames(spec, sourceKinds, sourceName);
      requireSpecModels(modelNames, models, from);
      await requireModelsReady(modelNames.map(({ model }) => models.get(model)));
      const samples = await readSamples(flags.input);
      const { createScoringEvaluator } = await import('../scoring-evaluator.js');
      const evaluator = await createScoringEvaluator(spec, {
        workers: 0,
        models,
        allowUnsafeCode: false,
      });
      if (evaluator.needsGroups) {
        await evaluator.close();
        throw new RewardKitError(
          'RK_USAGE',
          'redteam scores samples one at a time; this spec compares groups',
        );
      }
      try {
        const summaries = await runRedteam(samples, {
          exploits: chosen,
          seed: flags.seed,
          resamples: flags.resamples,
          // A row the spec fails on is counted as failed; a thrown error (a dead backend) stops the run.
          score: async (sample) => {
            const result = await evaluator.evaluate(sample);
            return result.status === 'ok' ? result.reward : null;
          },
        });
        const report = { spec: runSpecName(spec, flags.spec), samples: samples.length, exploits: summaries };
        const json = `${JSON.stringify(report, null, 2)}\n`;
        if (flags.output === '-') process.stdout.write(json);
        else await writeFile(flags.output, json);
        const fixed = (x: number | null) => (x === null ? '—' : x >= 0 ? `+${x.toFixed(3)}` : x.toFixed(3));
        for (const s of summaries) {
          const ci = s.ci ? `[${fixed(s.ci[0])}, ${fixed(s.ci[1])}]` : '[—]';
          const share = s.lifted_share === null ? '—' : `${(100 * s.lifted_share).toFixed(0)}%`;
          process.stderr.write(
            `${liftsReward(s) ? 'LIFTS ' : unscored(s) ? 'UNSCORED ' : 'ok    '}${s.name}: applied ${s.applied}, lifted ${share}, mean lift ${fixed(s.mean_lift)} ${ci}, failed ${s.failed}\n`,
          );
        }
        const blind = summaries.filter(unscored);
        if (blind.length > 0)
          process.stderr.write(
            `rewardkit redteam: ${blind.length} exploit(s) applied but no sample could be scored (every scoring failed): the spec was not checked against them\n`,
          );
        state.exitCode = summaries.some(liftsReward) || blind.length > 0 ? EXIT.error : EXIT.ok;
      } finally {
        await evaluator.close();
      }
    });
}
