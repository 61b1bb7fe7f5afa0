import { writeFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CalibrationMetrics, CalibrationSummary, ScoredRow } from '../../calibration/index.js';
import { mapConcurrent, RewardKitError } from '../../core/index.js';
import { addBreakerOption, type BreakerFlags, breakerGuard, throwIfBackendDown } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';
import { runSpecName } from '../run-spec-name.js';
import { STORE_FLAG_HELP } from '../store-location.js';

interface CalibrateFlags extends BreakerFlags {
  scores?: string;
  spec?: string;
  input?: string;
  labels?: string;
  labelsFromStore?: string;
  output: string;
  method: 'isotonic' | 'platt';
  report?: string;
  summary?: string;
  source?: string;
  folds: number;
  seed: number;
  bins: number;
  models?: string;
  store?: string;
}

/** Rows left out printed to stderr; the summary file lists them all. */
const SHOWN_PROBLEMS = 20;
/** Samples scored at once when the scores come from a spec. */
const CONCURRENCY = 8;

const atLeastTwo = (flag: string) => (value: string) => {
  const n = positiveInt(flag)(value);
  if (n < 2) throw new InvalidArgumentError(`${flag} expects an integer ≥ 2, got "${value}".`);
  return n;
};

/** `rewardkit calibrate`: fit a judge's scores to human labels and write the calibration map. */
export function registerCalibrateCommand(calibrate: Command, state: CommandState): void {
  calibrate
    .option('--scores <file>', 'scored results JSONL, as `rewardkit score` writes them')
    .option('-s, --spec <file|preset>', 'score --input with this spec instead of reading --scores')
    .option('-i, --input <file>', 'samples to score with --spec, one JSON object per line')
    .option('-l, --labels <file>', 'labels JSONL: {"id", "label"} with label 0, 1, true, false or in [0, 1]')
    .option(
      '--labels-from-store <run-id>',
      'instead of --labels: the labels given to this run in rewardkit view --allow-labels (read from --store)',
    )
    .requiredOption('-o, --output <file>', 'write the calibration map (JSON) here ("-" for stdout)')
    .addOption(
      new Option('--method <method>', 'isotonic (monotone steps) or platt (a logistic curve)')
        .choices(['isotonic', 'platt'])
        .default('isotonic'),
    )
    .option('--source <name>', 'calibrate this component (a source name) instead of the reward')
    .option('--report <file>', 'write a self-contained HTML report with reliability diagrams')
    .option('--summary <file>', 'write the metrics, counts and rows left out as JSON')
    .option('--folds <k>', 'folds of the cross-fitted "after" metrics', atLeastTwo('--folds'), 5)
    .option('--seed <n>', 'seed of the fold assignment', nonNegativeInt('--seed'), 0)
    .option('--bins <n>', 'equal-width bins of ECE and the reliability curves', positiveInt('--bins'), 10)
    .option('--models <file>', 'models file naming the LLMs judge sources use (with --spec)')
    .option('--store <path>', STORE_FLAG_HELP);
  addBreakerOption(calibrate)
    .addHelpText(
      'after',
      `
Scores come from --scores (the reward, or the --source component, of each row) or from scoring
--input with --spec. Labels come from --labels, or from --labels-from-store: the labels a person gave
a run's samples in "rewardkit view --allow-labels" (correct 1, incorrect 0, a score itself). Labels
are joined by id. A label row without an id or with a label that is not
0/1/true/false/[0, 1], a scored row with no label, a failed scoring and a label with no score are each
named by file:line:field, counted and left out. The map is fitted on every labelled point; the
"after" metrics are cross-fitted (each fold mapped by a fit on the others) and in-sample. Apply the
map with "calibration: map.json" on the spec's source. The run is stored (see --store) and listed
by "rewardkit view" with its report.

Exit codes: 0 fitted; 3 fitted, but some rows were malformed or their scoring failed (each named
above, left out); 2 bad flags or too few labelled points; 4 the models' backend went down (with
--spec; nothing is written). See docs/calibration.md.

Example:
  rewardkit calibrate --scores scores.jsonl --labels labels.jsonl --output map.json --report calibration.html
  rewardkit calibrate --scores scores.jsonl --labels-from-store run-20260101-120000-abcd --output map.json`,
    )
    .action(async (flags: CalibrateFlags) => {
      if ((flags.scores === undefined) === (flags.spec === undefined))
        throw new RewardKitError(
          'RK_USAGE',
          'pass either --scores <file> or --spec <file|preset> with --input <file>',
        );
      if ((flags.labels === undefined) === (flags.labelsFromStore === undefined))
        throw new RewardKitError(
          'RK_USAGE',
          'pass either --labels <file> or --labels-from-store <run-id> (labels given in rewardkit view)',
        );
      if (flags.spec !== undefined && flags.input === undefined)
        throw new RewardKitError('RK_USAGE', '--spec needs --input <file>: the samples to score');
      if (flags.scores !== undefined && flags.input !== undefined)
        throw new RewardKitError('RK_USAGE', '--input goes with --spec; --scores already holds the scores');
      // The fit needs every scoring, so a stopped run has nothing worth writing.
      state.keptOnStop = 'Nothing is written (a calibration needs every scoring)';
      const { readLabelRows, readScoredRows } = await import('../calibration-inputs.js');
      // Where the labels came from, as the map, summary, report and stored run name it.
      const labelsFrom = flags.labels ?? `store:${flags.labelsFromStore}`;
      const labels =
        flags.labels !== undefined
          ? await readLabelRows(flags.labels)
          : await (await import('../store-label-rows.js')).readStoreLabelRows(
              flags.store,
              flags.labelsFromStore as string,
            );
      const scored =
        flags.scores !== undefined
          ? await readScoredRows(flags.scores, flags.source)
          : await scoreWithSpec(flags, state);
      const { calibrationSummary, fitCalibrationMap, joinLabels } = await import(
        '../../calibration/index.js'
      );
      const joined = joinLabels(scored.rows, labels.rows);
      const problems = [...scored.problems, ...labels.problems, ...joined.problems];
      if (joined.points.length < flags.folds)
        throw new RewardKitError(
          'RK_USAGE',
          `${joined.points.length} labelled points, fewer than the ${flags.folds} folds: ${problems.length} rows were left out${problems.length > 0 ? `, e.g.\n  ${problems.slice(0, 5).join('\n  ')}` : ''}`,
        );
      const summary = calibrationSummary(joined.points, {
        method: flags.method,
        bins: flags.bins,
        folds: flags.folds,
        seed: flags.seed,
      });
      const scoresFrom = flags.scores ?? flags.spec ?? '';
      const map = fitCalibrationMap(joined.points, flags.method, {
        ...(flags.source !== undefined && { source: flags.source }),
        spec: scoresFrom,
        labels: labelsFrom,
        cross_fitted_ece: summary.after.cross_fitted.ece,
      });
      const mapJson = `${JSON.stringify(map, null, 2)}\n`;
      if (flags.output === '-') process.stdout.write(mapJson);
      else await writeFile(flags.output, mapJson);
      const counts = {
        label_rows_left_out: labels.problems.length,
        score_rows_left_out: scored.problems.length,
        ...joined.counts,
      };
      if (flags.summary !== undefined)
        await writeFile(
          flags.summary,
          `${JSON.stringify({ scores: scoresFrom, ...(flags.source !== undefined && { source: flags.source }), labels: labelsFrom, map: flags.output, counts, problems, ...summary }, null, 2)}\n`,
        );
      for (const problem of problems.slice(0, SHOWN_PROBLEMS)) process.stderr.write(`left out: ${problem}\n`);
      if (problems.length > SHOWN_PROBLEMS)
        process.stderr.write(
          `left out: … and ${problems.length - SHOWN_PROBLEMS} more${flags.summary ? ` (all in ${flags.summary})` : ' (--summary lists them all)'}\n`,
        );
      process.stderr.write(formatSummary(summary, problems.length, flags.output));
      const { openAnalysisRun } = await import('../analysis-run.js');
      const stored = await openAnalysisRun(flags.store, {
        spec_name: `calibration:${flags.source ?? 'reward'}`,
        spec: {
          method: flags.method,
          scores: scoresFrom,
          source: flags.source ?? null,
          labels: labelsFrom,
        },
        input: flags.input ?? scoresFrom,
        output: flags.output,
      });
      // The page is drawn only for a reader: the --report file or the stored run.
      const { calibrationReportHtml } = await import('../../view/index.js');
      const html =
        flags.report === undefined && !stored
          ? ''
          : calibrationReportHtml({
              scores: flags.scores ?? `${flags.spec} on ${flags.input}`,
              ...(flags.source !== undefined && { source: flags.source }),
              labels: labelsFrom,
              map: flags.output,
              summary,
              problems: problems.slice(0, 200),
              problemCount: problems.length,
            });
      if (flags.report !== undefined) await writeFile(flags.report, html);
      if (stored) {
        try {
          const fmt = (m: CalibrationMetrics | null) => (m === null ? '—' : m.ece.toFixed(3));
          const headline = `${flags.method} on ${summary.n} labelled points: ECE ${fmt(summary.before)} → ${fmt(summary.after.cross_fitted)} cross-fitted`;
          await stored.finish({ kind: 'calibration', headline, counts, ...summary }, html);
          process.stderr.write(`rewardkit calibrate: run ${stored.id}\n`);
        } finally {
          await stored.close();
        }
      }
      // Rows no one labelled are expected; a malformed row or a failed scoring is not.
      const broken = counts.label_rows_left_out + counts.score_rows_left_out + joined.counts.unscored;
      state.exitCode = broken > 0 ? EXIT.rowsFailed : EXIT.ok;
    });
}

const fixed = (m: CalibrationMetrics | null, key: 'ece' | 'mce' | 'brier') =>
  m === null ? '  —   ' : m[key].toFixed(4);

function formatSummary(s: CalibrationSummary, leftOut: number, output: string): string {
  const lines = [
    `rewardkit calibrate: ${s.method} on ${s.n} labelled points (${leftOut} rows left out); map ${output === '-' ? '<stdout>' : output}`,
    `         before   after, cross-fitted (${s.folds} folds)   after, in-sample`,
    ...(
      [
        ['ece', 'ECE'],
        ['mce', 'MCE'],
        ['brier', 'Brier'],
      ] as const
    ).map(
      ([key, name]) =>
        `  ${name.padEnd(6)} ${fixed(s.before, key)}   ${fixed(s.after.cross_fitted, key).padEnd(30)}${fixed(s.after.in_sample, key)}`,
    ),
    ...(s.before_reason ? [`  before: ${s.before_reason}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** Scores --input with --spec: the reward, or the --source component, of each sample. */
async function scoreWithSpec(
  flags: CalibrateFlags,
  state: CommandState,
): Promise<{ rows: ScoredRow[]; problems: string[] }> {
  const { loadSpec, sourceKinds, sourceName } = await import('../../spec/index.js');
  const spec = loadSpec(flags.spec as string);
  if (flags.source !== undefined) {
    const leaves = [...spec.routes.map((r) => r.spec), ...(spec.default ? [spec.default] : [])];
    const names = [...new Set(leaves.flatMap((leaf) => leaf.sources.map(sourceName)))];
    if (!names.includes(flags.source))
      throw new RewardKitError(
        'RK_USAGE',
        `--source "${flags.source}": spec ${runSpecName(spec, flags.spec as string)} has no such source (sources: ${names.join(', ')})`,
      );
  }
  const { loadConfiguredModels, requireModelsReady } = await import('../models-location.js');
  const { requireSpecModels, specModelNames } = await import('../spec-model-names.js');
  const { models, from } = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
  const modelNames = specModelNames(spec, sourceKinds, sourceName);
  requireSpecModels(modelNames, models, from);
  await requireModelsReady(modelNames.map(({ model }) => models.get(model)));
  const { readPlacedSamples } = await import('../calibration-inputs.js');
  const samples = await readPlacedSamples(flags.input as string);
  const { createScoringEvaluator } = await import('../scoring-evaluator.js');
  const evaluator = await createScoringEvaluator(spec, { workers: 0, models, allowUnsafeCode: false });
  try {
    if (evaluator.needsGroups)
      throw new RewardKitError(
        'RK_USAGE',
        'this spec compares groups: score it with `rewardkit score` and pass the results with --scores',
      );
    const field = flags.source === undefined ? 'reward' : `components.${flags.source}`;
    const rows = await mapConcurrent(samples, CONCURRENCY, async ({ sample, place }) => {
      const result = await evaluator.evaluate(sample);
      const score =
        result.status !== 'ok'
          ? null
          : flags.source === undefined
            ? result.reward
            : (result.components[flags.source] ?? null);
      // A scoring failed once the breaker opened was a refused call, not a row to leave out.
      if (score === null) throwIfBackendDown(state);
      return { id: sample.id, score, place, field } satisfies ScoredRow;
    });
    return { rows, problems: [] };
  } finally {
    await evaluator.close();
  }
}
