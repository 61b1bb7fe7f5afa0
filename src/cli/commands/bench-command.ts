import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import type { BenchReport } from '../../bench/index.js';
import { RewardKitError } from '../../core/index.js';
import type { AnalysisSummary } from '../../store/analysis-summary.js';
import type { BenchReportHtmlInput } from '../../view/index.js';
import { runSignal, withholdOnceOpen } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import {
  addDatasetInputOptions,
  DATASET_INPUT_HELP,
  type DatasetInputFlags,
  datasetInputOptions,
  refuseParquetOutput,
  requireDatasetInput,
} from '../dataset-input-flags.js';
import { EXIT } from '../exit-codes.js';
import { formatBenchReport } from '../format-bench-report.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';
import { createProgressReporter } from '../progress.js';
import {
  addResponseCacheOptions,
  type JudgeModelFlags,
  openJudgeModel,
  storedRunHelp,
} from './judge-model.js';

/** The report as JSON, or for a `.html` file as one self-contained page with its plots. */
async function writeBenchReport(file: string, report: BenchReportHtmlInput, output: string): Promise<void> {
  if (/\.html?$/i.test(file)) {
    const { benchReportHtml } = await import('../../view/index.js');
    await writeFile(file, benchReportHtml({ ...report, output }));
  } else await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}

/** The run's summary in the store: the report, with the kind and headline `runs list` shows. */
function benchRunSummary(report: BenchReport & { judge: string; model: string }): AnalysisSummary {
  const m = report.judge_metrics;
  const fixed = (n: number | null) => (n === null ? '—' : n.toFixed(4));
  return {
    kind: 'bench',
    headline: `${report.title}: score ${fixed(report.score)} · ${report.items.judged} judged, ${report.items.failed} failed · position consistency ${fixed(m.position_consistency)} · judge ${report.judge} (${report.model})`,
    report,
  };
}

interface BenchFlags extends JudgeModelFlags, DatasetInputFlags {
  dataset: string;
  input: string;
  judge: string;
  output: string;
  report?: string;
  mode: 'listwise' | 'ratings';
  concurrency: number;
  limit?: number;
  seed: number;
  reasks: number;
  resume: boolean;
  progress: boolean;
}

const DATASETS = ['rewardbench', 'rewardbench2', 'judgebench', 'rm-bench', 'pairwise'];

export function registerBenchCommand(command: Command, state: CommandState): void {
  addDatasetInputOptions(command)
    .addOption(
      new Option('-d, --dataset <name>', 'benchmark format of --input')
        .choices(DATASETS)
        .makeOptionMandatory(),
    )
    .requiredOption(
      '-i, --input <file>',
      'the benchmark as published: .parquet, .json, .jsonl or a dataset folder',
    )
    .requiredOption('-m, --model <name>', 'the judge model: a name from the models file')
    .requiredOption('-o, --output <file>', 'one result per item (JSONL); rerunning skips ids already in it')
    .option('--judge <name>', 'pairwise judge for pairwise benchmarks: genrm, openrs or skill_rm', 'genrm')
    .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
    .option(
      '--report <file>',
      'also write the report to this file: self-contained HTML with plots for .html, else JSON',
    )
    .addOption(
      new Option(
        '--mode <mode>',
        'RewardBench 2 outside Ties: one four-way pick, or a 1–10 rating per answer',
      )
        .choices(['listwise', 'ratings'])
        .default('listwise'),
    )
    .option('-c, --concurrency <n>', 'items judged at once', positiveInt('--concurrency'), 4)
    .option('--limit <n>', 'only the first n rows of the dataset', positiveInt('--limit'))
    .option(
      '--seed <n>',
      'seeds the order each pair is shown in and the listwise position',
      nonNegativeInt('--seed'),
      0,
    )
    .option('--reasks <n>', 're-asks after unreadable judge output', nonNegativeInt('--reasks'), 2)
    .option('--no-resume', 'start the output afresh instead of skipping ids already in it')
    .option('--no-progress', 'no progress line on stderr');
  addResponseCacheOptions(command, { storesRun: true })
    .addHelpText(
      'after',
      `
Each benchmark is scored with its own metric (see docs/bench.md); every report also gives position
consistency, tie, inconsistent and invalid rates, how verdicts follow length, and calls and tokens
per judgment. An unreadable judgment is "invalid" with its reason, never a silent 0. A malformed row
is written to the output as {"status": "failed", "error": "file: row N: field ..."}; the exit code
is then 3.
${storedRunHelp('bench')} The run's summary is the report, its page in
\`rewardkit view\` shows its tables; each item is a result: its judgments as evidence, the reward the
mean credit of its judgments (right 1, tie 0.5, wrong 0; invalid ones left out), its group as data source.
${DATASET_INPUT_HELP}

Examples:
  rewardkit bench --dataset rewardbench --input filtered-00000-of-00001.parquet \\
    --models models.yaml --model judge --output rb.jsonl --report rb.json
  rewardkit bench --dataset pairwise --input pairs.jsonl --models models.yaml --model judge \\
    --output p.jsonl --report p.html          (the report as one HTML file: tables and plots)
  rewardkit bench --dataset rewardbench2 --mode ratings --input test-00000-of-00001.parquet \\
    --models models.yaml --model judge --output rb2.jsonl
  rewardkit bench --dataset judgebench --input "dataset=judgebench,response_model=gpt-4o-2024-05-13.jsonl" \\
    --models models.yaml --model judge --output jb.jsonl
  rewardkit bench --dataset rm-bench --input total_dataset.json --models models.yaml --model judge \\
    --output rmb.jsonl --limit 100
  rewardkit bench --dataset pairwise --input pairs.jsonl --models models.yaml --model judge --output p.jsonl
    (rows {"id", "prompt", "chosen", "rejected"} or {"id", "prompt", "first", "second", "label"})`,
    )
    .action(async (flags: BenchFlags) => {
      requireDatasetInput(flags.input);
      refuseParquetOutput('rewardkit bench', flags.output);
      const judgeModel = await openJudgeModel(flags, state, 'bench');
      const { model } = judgeModel;
      const { BENCH_DATASETS, runBench } = await import('../../bench/index.js');
      const { pairwiseJudgeOf } = await import('../pairwise-judge-of.js');
      const judge = pairwiseJudgeOf(flags.judge, model, { reasks: flags.reasks });
      const dataset = BENCH_DATASETS[flags.dataset];
      if (!dataset) throw new RewardKitError('RK_USAGE', `--dataset: unknown dataset "${flags.dataset}"`);
      const { openStoredRowsRun } = await import('../stored-rows-run.js');
      const { benchRecordResult } = await import('../bench-record-result.js');
      const stored = await openStoredRowsRun(
        flags.store,
        {
          spec_name: `bench:${flags.dataset}`,
          // What makes two runs the same benchmark run, for resume.
          spec: {
            bench: flags.dataset,
            judge: flags.judge,
            model: flags.model,
            mode: flags.mode,
            seed: flags.seed,
          },
          input: flags.input,
          output: flags.output,
        },
        { resume: flags.resume, kind: 'bench' },
      );
      const progress = createProgressReporter({ total: flags.limit, enabled: flags.progress });
      const controller = new AbortController();
      const onSigint = () => controller.abort();
      // SIGTERM (a scheduler stopping the job) drains like Ctrl-C, as for `score`.
      process.once('SIGINT', onSigint);
      process.once('SIGTERM', onSigint);
      let stopped: string | undefined = 'the command failed';
      try {
        const result = await runBench({
          dataset,
          input: flags.input,
          ...datasetInputOptions(flags),
          output: flags.output,
          context: {
            judge,
            model,
            mode: flags.mode,
            seed: flags.seed,
            reasks: flags.reasks,
            signal: controller.signal,
          },
          concurrency: flags.concurrency,
          resume: flags.resume,
          signal: runSignal(controller.signal, state),
          // An item with no readable verdict once the breaker had opened, or once Ctrl-C had cut
          // its calls short, was not judged: it is not written, and a rerun judges it.
          withhold: (record) => {
            const unjudged =
              record.status === 'failed' || record.judgments.every((j) => j.outcome === 'invalid');
            return withholdOnceOpen(state, () => unjudged)(record) || (controller.signal.aborted && unjudged);
          },
          ...(stored && { onWritten: (record) => stored.save(benchRecordResult(record, flags.judge)) }),
          ...(flags.limit !== undefined && { limit: flags.limit }),
          onProgress: (p) => progress.update(p),
          onWarning: (message) => process.stderr.write(`rewardkit: warning: ${message}\n`),
        });
        progress.stop();
        const report = {
          ...result.report,
          judge: flags.judge,
          model: flags.model,
          mode: flags.mode,
          seed: flags.seed,
        };
        if (flags.report) await writeBenchReport(flags.report, report, flags.output);
        if (stored) {
          const { storeBenchOutput } = await import('../store-bench-output.js');
          const outputRows = await storeBenchOutput(stored, flags.output, flags.dataset, flags.judge);
          const { benchReportHtml } = await import('../../view/index.js');
          stopped = undefined;
          await stored.finish(benchRunSummary(report), {
            interrupted: result.interrupted,
            outputRows,
            outputName: flags.output,
            reportHtml: benchReportHtml({ ...report, output: flags.output }),
          });
        }
        if (result.run.unwritten > 0) {
          process.stderr.write(
            `rewardkit bench: ${result.run.unwritten} item(s) got no verdict ${result.interrupted && state.breaker?.opened === undefined ? 'before the run was stopped' : 'after the backend went down'} and are not written: a rerun judges them\n`,
          );
        }
        process.stdout.write(
          formatBenchReport(result.report, {
            output: flags.output,
            ...(flags.report && { reportFile: flags.report }),
            ...(stored && { runId: stored.id }),
          }),
        );
        state.exitCode = result.interrupted
          ? EXIT.interrupted
          : result.report.items.failed > 0 || result.report.items.unanswered > 0
            ? EXIT.rowsFailed
            : EXIT.ok;
      } finally {
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigint);
        progress.stop();
        await stored?.close(stopped);
        await judgeModel.close();
      }
    });
}
