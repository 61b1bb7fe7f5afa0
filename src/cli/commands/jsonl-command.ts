import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { z } from 'zod';
import { RewardKitError } from '../../core/index.js';
import { runSignal, withholdOnceOpen } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import {
  addDatasetInputOptions,
  DATASET_INPUT_HELP,
  type DatasetInputFlags,
  datasetInputOptions,
  inputTotal,
  refuseParquetOutput,
} from '../dataset-input-flags.js';
import { EXIT } from '../exit-codes.js';
import { formatRowsSummary } from '../format-rows-summary.js';
import type { JsonlRowsSummary, MapJsonlRowsOptions } from '../map-jsonl-rows.js';
import { positiveInt } from '../number-flags.js';
import { createProgressReporter } from '../progress.js';

/** The flags every row-by-row command takes (see `addJsonlOptions`). */
export interface JsonlCommandFlags extends DatasetInputFlags {
  input: string;
  output?: string;
  resume: boolean;
  concurrency: number;
}

/** The part of `--help` every row-by-row command shares. */
export const JSONL_OUTPUT_HELP = `
Output: stdout, or the --output file. Rerunning with the same --output skips ids already written
there (--no-resume starts over). A malformed row, a repeated id or a row that fails is written as
{"id", "error"}, never dropped. One summary line goes to stderr ("N rows, N ok, N failed, N skipped").
Exit code 3 when any row failed; Ctrl-C (or SIGTERM) stops reading, writes the rows in flight and exits 130.
${DATASET_INPUT_HELP}`;

/** Adds -i, -o, --no-resume and -c to a row-by-row command. */
export function addJsonlOptions(command: Command, defaults: { concurrency: number }): Command {
  return addDatasetInputOptions(command)
    .requiredOption(
      '-i, --input <path>',
      'rows: JSONL, JSON array, Parquet or a dataset folder ("-": JSONL on stdin)',
    )
    .option('-o, --output <file>', 'write the results to this file, resumable (default: stdout)')
    .option('--no-resume', 'overwrite the output file instead of skipping ids already in it')
    .option(
      '-c, --concurrency <n>',
      'rows handled at once; lines stay in input order',
      positiveInt('--concurrency'),
      defaults.concurrency,
    );
}

/**
 * Runs `mapJsonlRows` as a command: input and output from the flags, progress on a terminal,
 * Ctrl-C or SIGTERM stops reading (rows in flight are written; exit 130), one summary line on stderr, and
 * exit code 3 when any row failed.
 */
/** Fails before any other work (opening a store, loading models) when the input file is missing. */
export function requireJsonlInput(flags: Pick<JsonlCommandFlags, 'input'>): void {
  if (flags.input !== '-' && !existsSync(flags.input)) {
    throw new RewardKitError('RK_USAGE', `Input file not found: ${flags.input}`);
  }
}

export async function runJsonlCommand<S extends z.ZodType>(
  command: string,
  flags: JsonlCommandFlags,
  rows: Pick<MapJsonlRowsOptions<S>, 'schema' | 'idOf' | 'handle' | 'autoId' | 'onWritten'>,
  state: CommandState,
): Promise<JsonlRowsSummary> {
  const fromStdin = flags.input === '-';
  const toFile = flags.output !== undefined && flags.output !== '-';
  requireJsonlInput(flags);
  refuseParquetOutput(`rewardkit ${command}`, flags.output);
  const { mapJsonlRows } = await import('../map-jsonl-rows.js');
  // A bar only where someone watches it, and never drawn over results printed to the same terminal.
  const showProgress = process.stderr.isTTY === true && (toFile || process.stdout.isTTY !== true);
  const progress = createProgressReporter({
    label: command,
    total: showProgress && !fromStdin ? await inputTotal(flags) : undefined,
    enabled: showProgress,
  });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  // SIGTERM (a scheduler stopping the job) drains like Ctrl-C, as for `score`.
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigint);
  try {
    const summary = await mapJsonlRows({
      ...rows,
      input: fromStdin ? process.stdin : flags.input,
      inputName: fromStdin ? '<stdin>' : flags.input,
      ...datasetInputOptions(flags),
      output: toFile ? (flags.output as string) : process.stdout,
      resume: flags.resume,
      concurrency: flags.concurrency,
      signal: runSignal(controller.signal, state),
      // A row that failed once the breaker had opened was not really judged: a rerun judges it.
      withhold: withholdOnceOpen(state, (line) => 'error' in line),
      onProgress: (p) => progress.update(p),
      onWarning: (message) => process.stderr.write(`rewardkit: warning: ${message}\n`),
    });
    progress.stop();
    process.stderr.write(formatRowsSummary(command, summary, toFile ? (flags.output as string) : '<stdout>'));
    state.exitCode = summary.interrupted ? EXIT.interrupted : summary.failed > 0 ? EXIT.rowsFailed : EXIT.ok;
    return summary;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    progress.stop();
  }
}
