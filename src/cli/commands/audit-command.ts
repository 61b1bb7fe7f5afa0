import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { AuditReport, AuditResult, Probe } from '../../audit/index.js';
import { RewardKitError, type Sample } from '../../core/index.js';
import { addBreakerOption, type BreakerFlags, breakerGuard } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';
import { readSamples } from '../read-samples.js';
import { runSpecName } from '../run-spec-name.js';
import { STORE_FLAG_HELP } from '../store-location.js';
import { requireJsonlInput } from './jsonl-command.js';

interface AuditFlags extends BreakerFlags {
  spec?: string;
  judge?: string;
  model?: string;
  input: string;
  output: string;
  report?: string;
  models?: string;
  probes?: string;
  seed: number;
  resamples: number;
  concurrency: number;
  store?: string;
}

/** `rewardkit audit`: does the reward pay for length, format, agreement or confidence? */
export function registerAuditCommand(audit: Command, state: CommandState): void {
  audit
    .option('-s, --spec <file|preset>', 'reward spec file (YAML/JSON) or built-in preset to audit')
    .option(
      '--judge <kind>',
      'audit a pairwise judge kind on labelled pairs instead of a spec (needs --model)',
    )
    .option('-m, --model <name>', 'with --judge: the judge model, a name from the models file')
    .requiredOption(
      '-i, --input <file>',
      'samples (with --spec; "-" for stdin) or labelled pairs (with --judge: JSONL, JSON or Parquet)',
    )
    .requiredOption('-o, --output <file>', 'write audit.json here ("-" for stdout)')
    .option('--report <file>', 'also write a self-contained HTML report (scatter and violin plots, tables)')
    .option(
      '--models <file>',
      'models file naming the LLMs the spec or judge uses (default: $REWARDKIT_MODELS)',
    )
    .option(
      '--probes <list>',
      'comma-separated redteam exploits applied as counterfactual probes (default: length-padding,format-inflation,flattering-opener; "none": no probes)',
    )
    .option(
      '--seed <n>',
      'seed of the bootstrap, the probes and the pairs’ order',
      nonNegativeInt('--seed'),
      0,
    )
    .option('--resamples <n>', 'bootstrap resamples per interval', positiveInt('--resamples'), 1000)
    .option(
      '--concurrency <n>',
      'scorings in flight at once (judges wait on the network)',
      positiveInt('--concurrency'),
      4,
    );
  addBreakerOption(audit)
    .option('--store <path>', STORE_FLAG_HELP)
    .addHelpText(
      'after',
      `
Input rows with --spec: {"id", "response", "prompt"?, "reference"?, "data_source"?, "metadata"?}, as
for score. With --judge: {"id", "prompt", "chosen", "rejected"} (or "first", "second", "label"); each
pair is shown in one order drawn from --seed, and the reward is 1 when the judge prefers the better
answer, 0 the worse, 0.5 a tie. Probes apply to --spec audits only.

audit.json: {spec, samples, scored, failed: [{id, reasons}], attributes: [{name, n, pearson,
spearman, mi, mi_ci, mi_reason, mi_method, by_source}], probes: [{name, applied, moved_share,
mean_shift, ci, failed}]}. An estimate that could not be made is null with a reason, never 0.

Exit codes: 0 every row scored; 3 some scorings failed (listed in "failed", left out of the
statistics); 1 no row could be scored (nothing was measured); 4 the backend went down. A finished
audit is stored (see --store) and listed by "rewardkit view" with its report. Fields and how to
read them: docs/audit.md.

Examples:
  rewardkit audit --spec math --input samples.jsonl --output audit.json --report audit.html
  rewardkit audit --judge genrm --model judge --models models.yaml --input pairs.jsonl --output audit.json`,
    )
    .action(async (flags: AuditFlags) => {
      if ((flags.spec === undefined) === (flags.judge === undefined))
        throw new RewardKitError(
          'RK_USAGE',
          'pass exactly one of --spec (audit a reward spec) and --judge (audit a pairwise judge on pairs)',
        );
      if (flags.judge !== undefined && flags.model === undefined)
        throw new RewardKitError('RK_USAGE', '--judge needs --model, the judge model from the models file');
      if (flags.spec !== undefined && flags.model !== undefined)
        throw new RewardKitError('RK_USAGE', '--model applies to --judge only; a spec names its own models');
      requireJsonlInput(flags);
      const { auditReport } = await import('../../audit/index.js');
      // Every estimate needs every row, so a stopped audit has nothing worth writing.
      state.keptOnStop = 'Nothing is written (an audit needs every row)';
      const { name, spec, result } =
        flags.spec !== undefined
          ? await auditSpec(flags, flags.spec, state)
          : await auditJudge(flags, flags.judge as string, state);
      const report = auditReport(name, result);
      const json = `${JSON.stringify(report, null, 2)}\n`;
      if (flags.output === '-') process.stdout.write(json);
      else await writeFile(flags.output, json);
      const { formatAuditSummary } = await import('./audit-summary.js');
      process.stderr.write(formatAuditSummary(report));
      const { openAnalysisRun } = await import('../analysis-run.js');
      const stored = await openAnalysisRun(flags.store, {
        spec_name: name,
        spec,
        input: flags.input,
        output: flags.output,
      });
      // The page is drawn only for a reader: the --report file or the stored run.
      const { auditReportHtml } = await import('../../view/index.js');
      const html = flags.report !== undefined || stored ? auditReportHtml(report, result.rows) : '';
      if (flags.report !== undefined) await writeFile(flags.report, html);
      if (stored) {
        try {
          await stored.finish({ kind: 'audit', headline: auditHeadline(report), ...report }, html);
          process.stderr.write(`rewardkit audit: run ${stored.id}\n`);
        } finally {
          await stored.close();
        }
      }
      const probeFailures = report.probes.reduce((sum, p) => sum + p.failed, 0);
      state.exitCode =
        report.scored === 0
          ? EXIT.error
          : report.failed.length > 0 || probeFailures > 0
            ? EXIT.rowsFailed
            : EXIT.ok;
    });
}

async function auditSpec(
  flags: AuditFlags,
  specFlag: string,
  state: CommandState,
): Promise<{ name: string; spec: unknown; result: AuditResult }> {
  const { DEFAULT_PROBES, exploitProbe, runAudit, sampleAttributes } = await import('../../audit/index.js');
  const { exploits } = await import('../../redteam/index.js');
  const names =
    flags.probes === undefined ? DEFAULT_PROBES : flags.probes === 'none' ? [] : flags.probes.split(',');
  const probes: Probe<Sample>[] = names.map((name) => {
    const exploit = exploits[name.trim()];
    if (!exploit)
      throw new RewardKitError(
        'RK_USAGE',
        `--probes: unknown exploit "${name}" (known: ${Object.keys(exploits).join(', ')}, or "none")`,
      );
    return exploitProbe(exploit);
  });
  const { loadSpec, sourceKinds, sourceName } = await import('../../spec/index.js');
  const spec = loadSpec(specFlag);
  const { loadConfiguredModels, requireModelsReady } = await import('../models-location.js');
  const { requireSpecModels, specModelNames } = await import('../spec-model-names.js');
  const { models, from } = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
  const modelNames = specModelNames(spec, sourceKinds, sourceName);
  requireSpecModels(modelNames, models, from);
  await requireModelsReady(modelNames.map(({ model }) => models.get(model)));
  const samples = await readSamples(flags.input);
  const { createScoringEvaluator } = await import('../scoring-evaluator.js');
  const evaluator = await createScoringEvaluator(spec, { workers: 0, models, allowUnsafeCode: false });
  try {
    if (evaluator.needsGroups)
      throw new RewardKitError('RK_USAGE', 'audit scores samples one at a time; this spec compares groups');
    const { specScoring, stopIfBackendDown } = await import('./audit-scorers.js');
    const result = await runAudit(samples, {
      idOf: (sample) => sample.id,
      sourceOf: (sample) => sample.data_source,
      attributesOf: (sample) => sampleAttributes(sample.response),
      // A row the spec fails on is recorded as failed; a thrown error or a dead backend stops the run.
      score: async (sample) =>
        stopIfBackendDown(state, await specScoring((s) => evaluator.evaluate(s), sample)),
      probes,
      seed: flags.seed,
      resamples: flags.resamples,
      concurrency: flags.concurrency,
    });
    return { name: runSpecName(spec, specFlag), spec, result };
  } finally {
    await evaluator.close();
  }
}

async function auditJudge(
  flags: AuditFlags,
  kind: string,
  state: CommandState,
): Promise<{ name: string; spec: unknown; result: AuditResult }> {
  if (flags.input === '-')
    throw new RewardKitError(
      'RK_USAGE',
      '--judge reads pairs from a file (JSONL, JSON or Parquet), not stdin',
    );
  if (flags.probes !== undefined)
    throw new RewardKitError('RK_USAGE', '--probes applies to --spec audits only');
  const { loadConfiguredModels, pickModel, requireModelsReady } = await import('../models-location.js');
  const model = pickModel(
    await loadConfiguredModels(flags.models, breakerGuard(flags, state)),
    flags.model as string,
    'audit --judge',
  );
  await requireModelsReady([model]);
  const { pairwiseJudgeOf } = await import('../pairwise-judge-of.js');
  // One order per pair, so the judge's preference for a position is visible rather than averaged away.
  const judge = pairwiseJudgeOf(kind, model, { both_orders: false });
  const { readLabelledPairs } = await import('../read-labelled-pairs.js');
  const { pairs, rejected } = await readLabelledPairs(flags.input);
  if (rejected.length > 0)
    throw new RewardKitError('RK_USAGE', `bad input rows:\n  ${rejected.join('\n  ')}`);
  if (pairs.length === 0) throw new RewardKitError('RK_USAGE', `no pairs in ${flags.input}`);
  const { showPair } = await import('../../skills/evolve-judge/index.js');
  const { pairAuditAttributes, runAudit } = await import('../../audit/index.js');
  const { pairScoring, stopIfBackendDown } = await import('./audit-scorers.js');
  const shown = pairs.map((pair) => ({ pair, shown: showPair(pair, flags.seed) }));
  const result = await runAudit(shown, {
    idOf: ({ pair }) => pair.id,
    attributesOf: ({ pair, shown }) =>
      pairAuditAttributes(pair.chosen, pair.rejected, shown.better === 'first' ? 0 : 1),
    score: async ({ shown }) => stopIfBackendDown(state, await pairScoring((p) => judge.judge(p), shown)),
    seed: flags.seed,
    resamples: flags.resamples,
    concurrency: flags.concurrency,
  });
  return { name: `judge:${kind}`, spec: { judge: kind, model: flags.model }, result };
}

/** The run list's line: how many attributes go with the reward (an interval clear of 0), of those measured. */
function auditHeadline(report: AuditReport): string {
  const clear = (e: { ci: readonly [number, number] | null }) =>
    e.ci !== null && (e.ci[0] > 0 || e.ci[1] < 0);
  const measured = report.attributes.filter((a) => a.pearson.ci !== null || a.spearman.ci !== null);
  const flagged = measured.filter((a) => clear(a.pearson) || clear(a.spearman)).map((a) => a.name);
  const which = flagged.length > 0 ? ` (${flagged.join(', ')})` : '';
  return `${flagged.length} of ${measured.length} measured attributes go with the reward${which}; ${report.scored} of ${report.samples} scored`;
}
