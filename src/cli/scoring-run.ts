import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { RewardKitError, type RewardResult } from '../core/index.js';
import type { Evaluator, ResolvedSpec } from '../spec/index.js';
import { addBreakerOption, type BreakerFlags, breakerGuard, runSignal } from './backend-breaker.js';
import type { CommandState } from './command-state.js';
import {
  addDatasetInputOptions,
  type DatasetInputFlags,
  datasetInputOptions,
  inputTotal,
  requireDatasetInput,
} from './dataset-input-flags.js';
import { EXIT } from './exit-codes.js';
import { formatSummary } from './format-summary.js';
import { loadConfiguredModels, requireModelsReady } from './models-location.js';
import { positiveInt } from './number-flags.js';
import { parseDuration } from './parse-duration.js';
import { createProgressReporter } from './progress.js';
import {
  createScoringEvaluator,
  isLightSpec,
  scoreWorkers,
  TRACES_FLAG_HELP,
  workersOption,
} from './scoring-evaluator.js';
import { requireSpecModels, specModelNames } from './spec-model-names.js';
import { openStoreFromFlag, STORE_FLAG_HELP } from './store-location.js';

/** The flags of every command that scores samples with a spec (`score`, `judge <kind>`). */
export interface ScoringFlags extends DatasetInputFlags, Partial<BreakerFlags> {
  input: string;
  output: string;
  concurrency: number;
  store?: string;
  resume: boolean;
  progress: boolean;
  summary?: string;
  report?: string;
  models?: string;
  cache: boolean;
  cacheTtl?: number;
  /** Keep every judge call on its evidence (`--no-traces`: usage totals only). */
  traces: boolean;
  /** Only where the command has `--allow-unsafe-code` and `--workers` (`code: true`). */
  allowUnsafeCode?: boolean;
  workers?: number | 'auto';
}

/**
 * Adds the scoring flags: input and output, concurrency, store, resume, progress, summary, the
 * models file and its response cache, judge traces; `code` adds the flags only code and CPU-bound verifiers
 * read (`--workers`, `--allow-unsafe-code`).
 */
export function addScoringOptions(
  command: Command,
  options: {
    code: boolean;
    /** Where the command has another mode that prints by default, it requires -o itself (`requireOutput`). */
    outputOptional?: boolean;
  },
): Command {
  const output = '-o, --output <file>';
  const outputHelp = 'results: JSONL, or Parquet for a .parquet path ("-": JSONL on stdout)';
  addDatasetInputOptions(command).requiredOption(
    '-i, --input <path>',
    'samples: JSONL, JSON array, Parquet or a dataset folder ("-": JSONL on stdin)',
  );
  if (options.outputOptional === true) command.option(output, outputHelp);
  else command.requiredOption(output, outputHelp);
  command
    .option('-c, --concurrency <n>', 'samples scored at once', positiveInt('--concurrency'), 8)
    .option('--store <path|url>', STORE_FLAG_HELP);
  if (options.code) command.addOption(workersOption('score'));
  command
    .option('--no-resume', 'overwrite the output instead of skipping ids already in it')
    .option('--no-progress', 'no progress bar or progress lines')
    .option('--summary <file>', 'also write the summary as JSON to this file')
    .option(
      '--report <file>',
      'also write the finished run as one self-contained HTML file (summary, tables, histograms); needs the store',
    )
    .option('--models <file>', 'models file naming the LLMs judge sources use (default: $REWARDKIT_MODELS)');
  addBreakerOption(command)
    .option('--no-cache', 'call the models even for requests already answered in the store')
    .option(
      '--cache-ttl <duration>',
      'judge answers older than this (90s, 30m, 12h, 7d) are asked again (default: kept until deleted)',
      parseDuration('--cache-ttl'),
    )
    .option('--no-traces', TRACES_FLAG_HELP);
  if (options.code) {
    command.option(
      '--allow-unsafe-code',
      'run code without OS isolation when bubblewrap is unavailable (unsafe)',
      false,
    );
  }
  return command;
}

/** Refuses a scoring run without -o, as commander does for a required option. */
export function requireOutput<F extends { output?: string }>(
  flags: F,
): asserts flags is F & { output: string } {
  if (flags.output === undefined)
    throw new RewardKitError('RK_USAGE', "required option '-o, --output <file>' not specified");
}

/**
 * Scores the input with the spec: results written (resumably) to the output, the run and every
 * result kept in the store, judge answers cached there, progress on a terminal, SIGINT/SIGTERM
 * drain the rows in flight, the summary printed, and the exit code set (3: rows failed, 130:
 * interrupted).
 */
export async function runScoring(
  spec: ResolvedSpec,
  specName: string,
  flags: ScoringFlags,
  state: CommandState,
): Promise<void> {
  const fromStdin = flags.input === '-';
  const toStdout = flags.output === '-';
  requireDatasetInput(flags.input);
  const input = datasetInputOptions(flags);
  const { scoreFile } = await import('../runner/index.js');
  const { sourceKinds, sourceName, specWarnings } = await import('../spec/index.js');
  // Before the store opens: a refused spec leaves no run behind.
  const { models, from } = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
  const modelNames = specModelNames(spec, sourceKinds, sourceName);
  requireSpecModels(modelNames, models, from);
  await requireModelsReady(modelNames.map(({ model }) => models.get(model)));
  const store = await openStoreFromFlag(flags.store);
  if (flags.report !== undefined && store === undefined) {
    throw new RewardKitError(
      'RK_USAGE',
      '--report is written from the stored run: it needs a store, not --store none',
    );
  }
  if (store && flags.cache && models.size > 0) {
    const { withResponseCache } = await import('../llm/index.js');
    const ttl = flags.cacheTtl === undefined ? {} : { ttlMs: flags.cacheTtl };
    for (const [name, model] of models) models.set(name, withResponseCache(model, store, ttl));
  }
  // Specs with judge models score on the main thread (their rate limits and cache live here).
  const autoThreads = flags.workers === 'auto' && models.size === 0;
  // Counted once: for the progress bar, and for `--workers auto`, which starts threads only for
  // a file large enough to pay back their start-up.
  const total = fromStdin || (!flags.progress && !autoThreads) ? undefined : await inputTotal(flags);
  const workers = models.size > 0 ? 0 : scoreWorkers(flags.workers ?? 0, total, { light: isLightSpec(spec) });
  if (autoThreads && workers > 0) {
    process.stderr.write(
      `rewardkit: scoring ${total?.toLocaleString('en-US')} rows on ${workers} worker thread${workers === 1 ? '' : 's'} (--workers auto; --workers 0 keeps them on the main thread)\n`,
    );
  }
  const allowUnsafeCode = flags.allowUnsafeCode ?? false;
  const scoring = await createScoringEvaluator(spec, {
    workers,
    models,
    allowUnsafeCode,
    traces: flags.traces,
    ownWorkers: true,
  });
  const evaluator = withoutUnjudged(scoring, state);
  for (const warning of specWarnings(spec)) process.stderr.write(`rewardkit: warning: ${warning}\n`);
  const progress = createProgressReporter({
    total: flags.progress ? total : undefined,
    enabled: flags.progress && !toStdout,
  });
  const controller = new AbortController();
  // SIGTERM (a scheduler stopping the job) drains like Ctrl-C: rows in flight are written.
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const result = await scoreFile({
      evaluator,
      specName,
      input: fromStdin ? process.stdin : flags.input,
      inputName: fromStdin ? '<stdin>' : flags.input,
      ...input,
      output: toStdout ? process.stdout : flags.output,
      resume: flags.resume,
      concurrency: flags.concurrency,
      signal: runSignal(controller.signal, state),
      ...(store !== undefined && { store }),
      onProgress: (p) => progress.update(p),
      onWarning: (message) => process.stderr.write(`rewardkit: warning: ${message}\n`),
      // Threads score whole chunks of the file (reading, verifying, serializing), except, as
      // scoreFile decides, specs comparing a group's rollouts: those verify on a pool only.
      ...(workers > 0 && {
        workers: { count: workers, allowUnsafeCode, traces: flags.traces },
      }),
    });
    progress.stop();
    const text = formatSummary(result.summary, {
      output: flags.output,
      ...(result.run !== undefined && { runId: result.run.id }),
    });
    (toStdout ? process.stderr : process.stdout).write(text);
    if (evaluator.unwritten > 0) {
      process.stderr.write(
        `rewardkit: ${evaluator.unwritten} row(s) failed after the backend went down and are not written: running the same command again scores them\n`,
      );
    }
    if (flags.summary) await writeFile(flags.summary, `${JSON.stringify(result.summary, null, 2)}\n`);
    if (flags.report !== undefined && store && result.run) {
      const finished = await store.getRun(result.run.id);
      const { writeRunReport } = await import('./run-report.js');
      if (finished) await writeRunReport(store, finished, flags.report);
    }
    state.exitCode = result.interrupted
      ? EXIT.interrupted
      : result.summary.failed > 0
        ? EXIT.rowsFailed
        : EXIT.ok;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    progress.stop();
    await scoring.close();
    await store?.close();
  }
}

/**
 * The evaluator, less the results that failed once the circuit breaker had opened: those rows were
 * not judged (their calls were refused, or went to a backend already found down), so they are not
 * written, and resuming the run scores them, where a written failure would be skipped for good.
 * A group goes unwritten whole. `unwritten` counts the rows left out.
 */
function withoutUnjudged(
  evaluator: Evaluator,
  state: CommandState,
): Evaluator & { readonly unwritten: number } {
  let unwritten = 0;
  const judged = (result: RewardResult) =>
    result.status !== 'failed' && !result.evidence.some((evidence) => evidence.verdict === 'error');
  return {
    spec: evaluator.spec,
    needsGroups: evaluator.needsGroups,
    evaluate: (sample, options) => evaluator.evaluate(sample, options),
    close: () => evaluator.close(),
    get unwritten() {
      return unwritten;
    },
    async evaluateGroup(samples, options) {
      const results = await evaluator.evaluateGroup(samples, options);
      if (state.breaker?.opened === undefined || results.every(judged)) return results;
      unwritten += samples.length;
      return [];
    },
  };
}
