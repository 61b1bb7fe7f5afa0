import type { z } from 'zod';
import type { JudgeKind, JudgeRowFormat } from '../../spec/index.js';
import type { CommandState } from '../command-state.js';
import { EVPV_ROWS_HELP, runEvpvRows } from './evpv-rows.js';
import { type JudgeRowsFlags, runJudgeRows } from './judge-rows-command.js';

/** The run flags `--bench-rows` passes on, with `--bench-report` as `reportFile`. */
export type BenchRowsFlags = JudgeRowsFlags & { reportFile?: string };

/**
 * How `rewardkit judge <kind> --bench-rows` reads a judge kind's benchmark rows and writes its
 * lines, in the benchmark's terms, instead of samples and RewardResults: one door per judge, with
 * both of its row formats.
 */
export interface BenchRowsMode {
  /** The rows and the output lines, for `--help`. */
  readonly help: string;
  /** Rows judged at once unless `-c` says otherwise. */
  readonly concurrency: number;
  /** Params the rows have no use for (a verdict threshold, an aggregator when all are written). */
  readonly omit: readonly string[];
  /** Whether the mode has a report to write as JSON (`--bench-report <file>`). */
  readonly reportFile: boolean;
  /**
   * Whether the run is kept in the store, a result per row. EVPV's rows are not: a row holds
   * several candidates, each with its own scores, and no one reward.
   */
  readonly storesRun: boolean;
  readonly run: (
    params: unknown,
    flags: BenchRowsFlags,
    command: string,
    state: CommandState,
  ) => Promise<void>;
}

/** A kind's own row format (QuarkMedBench, ATP-Bench, MARCH rows) as a `--bench-rows` mode. */
function fromRowFormat(kind: JudgeKind, rows: JudgeRowFormat<z.ZodType>): BenchRowsMode {
  return {
    help: rows.help,
    concurrency: rows.concurrency,
    omit: rows.omit ?? [],
    reportFile: rows.report?.file === true,
    storesRun: true,
    run: (params, flags, command, state) => runJudgeRows(kind, rows, params, flags, command, state),
  };
}

/**
 * EVPV's problems with several candidates each (the rows `evpv corruption` reads): each candidate's
 * gated step scores under every aggregator, so `--aggregator` and `--pass-at` have no use there.
 */
const evpvRows: BenchRowsMode = {
  help: EVPV_ROWS_HELP,
  concurrency: 4,
  omit: ['aggregator', 'pass_at'],
  reportFile: false,
  storesRun: false,
  run: (params, flags, command, state) => {
    const p = params as {
      model: string;
      extractor?: string;
      auditor?: string;
      step_judge?: string;
      reasks: number;
    };
    return runEvpvRows(
      {
        ...flags,
        model: p.model,
        ...(p.extractor !== undefined && { extractor: p.extractor }),
        ...(p.auditor !== undefined && { auditor: p.auditor }),
        ...(p.step_judge !== undefined && { stepJudge: p.step_judge }),
        reasks: p.reasks,
      },
      command,
      state,
    );
  },
};

/** Modes declared here, by kind, for rows a `JudgeRowFormat` cannot say (a row of several responses). */
const CLI_ROWS: Readonly<Record<string, BenchRowsMode>> = { evpv: evpvRows };

/** The `--bench-rows` mode of a judge kind, where it has rows of its own. */
export function benchRowsModeOf(kind: JudgeKind): BenchRowsMode | undefined {
  return kind.rows !== undefined ? fromRowFormat(kind, kind.rows) : CLI_ROWS[kind.kind];
}
