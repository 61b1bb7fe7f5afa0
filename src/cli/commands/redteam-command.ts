import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { RewardKitError } from '../../core/index.js';
import type { Exploit, RedteamReport } from '../../redteam/index.js';
import { addBreakerOption, type BreakerFlags, breakerGuard } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { failureReasons } from '../failure-reasons.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';
import { readSamples } from '../read-samples.js';
import { runSpecName } from '../run-spec-name.js';
import { STORE_FLAG_HELP } from '../store-location.js';
import { requireJsonlInput } from './jsonl-command.js';

interface RedteamFlags extends BreakerFlags {
  spec: string;
  input: string;
  output: string;
  report?: string;
  exploits?: string;
  exploitModule: string[];
  models?: string;
  store?: string;
  seed: number;
  resamples: number;
  concurrency: number;
}

const repeat = (value: string, previous: string[] = []) => [...previous, value];

/** `rewardkit redteam`: apply known reward-hacking exploits to each response and re-score them through a spec. */
export function registerRedteamCommand(redteam: Command, state: CommandState): void {
  redteam
    .requiredOption('-s, --spec <file|preset>', 'reward spec file (YAML/JSON) or built-in preset')
    .requiredOption('-i, --input <file>', 'samples, one JSON object per line ("-" for stdin)')
    .requiredOption('-o, --output <file>', 'write the report as JSON here ("-" for stdout)')
    .option('--report <file>', 'also write the report as one self-contained HTML file')
    .option('--exploits <list>', 'comma-separated exploit names (default: all, own modules included)')
    .option(
      '--exploit-module <file>',
      'an ES module whose exports are exploits {name, description, apply}, added to the shipped ones (repeatable)',
      repeat,
      [],
    )
    .option('--models <file>', 'models file naming the LLMs judge sources use (default: $REWARDKIT_MODELS)')
    .option('--store <path>', STORE_FLAG_HELP)
    .option(
      '--seed <n>',
      'seed of the exploits’ random choices and of the bootstrap',
      nonNegativeInt('--seed'),
      0,
    )
    .option('--resamples <n>', 'bootstrap resamples per interval', positiveInt('--resamples'), 2000)
    .option(
      '--concurrency <n>',
      'scorings in flight at once (judges wait on the network)',
      positiveInt('--concurrency'),
      4,
    );
  addBreakerOption(redteam)
    .addHelpText(
      'after',
      `
Input rows: {"id", "response", "prompt"?, "reference"?, "data_source"?, "metadata"?}, as for score.
Each exploit sees only the prompt and the response, never the reference. A sample's lift is its
best exploited reward minus its original reward; a failed scoring leaves the sample out (counted
in "failed", listed with its reasons in "failures"). Exit code 1 when some exploit's 95% bootstrap
interval of the mean lift lies above 0 (the reward can be gamed), else 0; 4 when the models'
backend went down. The run is stored (see --store) and listed by "rewardkit view" with its report.
Exploits, own exploit modules and the report: docs/redteam.md.

Example:
  rewardkit redteam --spec math --input samples.jsonl --output redteam.json --report redteam.html`,
    )
    .action(async (flags: RedteamFlags) => {
      requireJsonlInput(flags);
      const chosen = await chooseExploits(flags);
      const { loadSpec, sourceKinds, sourceName } = await import('../../spec/index.js');
      const spec = loadSpec(flags.spec);
      const { loadConfiguredModels, requireModelsReady } = await import('../models-location.js');
      const { requireSpecModels, specModelNames } = await import('../spec-model-names.js');
      const { models, from } = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
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
      const specName = runSpecName(spec, flags.spec);
      const { openAnalysisRun } = await import('../analysis-run.js');
      const stored = await openAnalysisRun(flags.store, {
        spec_name: specName,
        spec,
        input: flags.input,
        output: flags.output,
      });
      const { addUsage, usageOf } = await import('../../llm/usage-of.js');
      const { ORIGINAL, liftsReward, runRedteam, unscored } = await import('../../redteam/index.js');
      const usage = { original: usageOf([]), exploits: usageOf([]) };
      // Every lift needs its sample's original scoring too, so a stopped redteam has no report.
      state.keptOnStop = 'No report is written (the stored run is marked interrupted)';
      let finished = false;
      try {
        const run = await runRedteam(samples, {
          exploits: chosen,
          seed: flags.seed,
          resamples: flags.resamples,
          concurrency: flags.concurrency,
          // The breaker opening stops the run: the rows after it would all fail for want of a backend.
          ...(state.breaker && { signal: state.breaker.signal }),
          // A row the spec fails on is recorded with its reasons; a thrown error stops the run.
          score: async (sample, exploit) => {
            const result = await evaluator.evaluate(sample);
            const pass = exploit === ORIGINAL ? 'original' : 'exploits';
            for (const evidence of result.evidence)
              if (evidence.usage) usage[pass] = addUsage(usage[pass], evidence.usage);
            return result.status === 'ok'
              ? { reward: result.reward }
              : { reward: null, reasons: failureReasons(result) };
          },
        });
        const { usageCost } = await import('../judgment-cost.js');
        const report: RedteamReport = {
          spec: specName,
          samples: samples.length,
          scorings: run.scorings,
          cost_multiple: run.scorings / samples.length,
          ...(models.size > 0 && {
            judge_cost: { original: usageCost(usage.original), exploits: usageCost(usage.exploits) },
          }),
          exploits: run.exploits,
          failures: run.failures,
        };
        const json = `${JSON.stringify(report, null, 2)}\n`;
        if (flags.output === '-') process.stdout.write(json);
        else await writeFile(flags.output, json);
        const { redteamReportHtml } = await import('../../view/redteam-report-html.js');
        const html = flags.report !== undefined || stored ? redteamReportHtml(report) : '';
        if (flags.report !== undefined) await writeFile(flags.report, html);
        const summaries = run.exploits;
        const fixed = (x: number | null) => (x === null ? '—' : x >= 0 ? `+${x.toFixed(3)}` : x.toFixed(3));
        for (const s of summaries) {
          const ci = s.ci ? `[${fixed(s.ci[0])}, ${fixed(s.ci[1])}]` : '[—]';
          const share = s.lifted_share === null ? '—' : `${(100 * s.lifted_share).toFixed(0)}%`;
          process.stderr.write(
            `${liftsReward(s) ? 'LIFTS ' : unscored(s) ? 'UNSCORED ' : s.applied === 0 ? 'n/a   ' : 'ok    '}${s.name}: applied ${s.applied}, lifted ${share}, mean lift ${fixed(s.mean_lift)} ${ci}, failed ${s.failed}\n`,
          );
        }
        const blind = summaries.filter(unscored);
        if (blind.length > 0)
          process.stderr.write(
            `rewardkit redteam: ${blind.length} exploit(s) applied but no sample could be scored (every scoring failed): the spec was not checked against them\n`,
          );
        const cost = report.judge_cost
          ? `; judge calls ${report.judge_cost.original.calls} original + ${report.judge_cost.exploits.calls} exploits, ${report.judge_cost.original.tokens + report.judge_cost.exploits.tokens} tokens`
          : '';
        process.stderr.write(
          `rewardkit redteam: ${run.scorings} scorings (${report.cost_multiple.toFixed(2)}× one pass), ${run.failures.length} failed${cost}${stored ? `; run ${stored.id}` : ''}\n`,
        );
        const lifting = summaries.filter(liftsReward);
        if (stored) {
          const headline = `${lifting.length} of ${summaries.length} exploits lift the reward${blind.length > 0 ? `, ${blind.length} unscored` : ''}`;
          await stored.finish({ kind: 'redteam', headline, ...report }, html);
        }
        finished = true;
        state.exitCode = lifting.length > 0 || blind.length > 0 ? EXIT.error : EXIT.ok;
      } finally {
        if (stored && !finished)
          await stored.interrupt('redteam', state.breaker?.opened ? 'the backend went down' : 'failed');
        await stored?.close();
        await evaluator.close();
      }
    });
}

/** The shipped exploits and the user's modules', narrowed by `--exploits`; every name checked before any work. */
async function chooseExploits(flags: RedteamFlags): Promise<Exploit[]> {
  const { exploits, loadExploitModule } = await import('../../redteam/index.js');
  const registry = new Map(Object.entries(exploits));
  for (const file of flags.exploitModule) {
    for (const exploit of await loadExploitModule(file)) {
      if (registry.has(exploit.name))
        throw new RewardKitError(
          'RK_USAGE',
          `--exploit-module ${file}: exploit "${exploit.name}" is already registered; give it another name`,
        );
      registry.set(exploit.name, exploit);
    }
  }
  if (flags.exploits === undefined) return [...registry.values()];
  return flags.exploits.split(',').map((raw) => {
    const name = raw.trim();
    const exploit = registry.get(name);
    if (!exploit)
      throw new RewardKitError(
        'RK_USAGE',
        `--exploits: unknown exploit "${name}" (known: ${[...registry.keys()].join(', ')})`,
      );
    return exploit;
  });
}
