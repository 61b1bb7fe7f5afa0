import type { z } from 'zod';
import type { LlmUsage, Sample } from '../core/index.js';

/** What a judge kind's check left for one row: its judgment and what its calls cost. */
export interface JudgedRow {
  /** The judgment the kind keeps as its evidence detail (a failed row's too). */
  readonly detail: unknown;
  readonly usage: LlmUsage | undefined;
}

/** A judgment as a kind keeps it in its evidence detail: its calls are on the evidence instead. */
export type DetailOf<J> = J extends unknown ? Omit<J, 'calls'> : never;

/** One output line without its `id`; a line carrying `error` is a failed row. */
export type RowLine = Record<string, unknown>;

/**
 * A judge's own row format: the rows its benchmark writes (MARCH's `{question, documents, answer}`,
 * ATP-Bench's `{query, doc, images, gt, response}`) and the lines its own command prints, in the
 * benchmark's terms. The judging is the kind's check, unchanged: a row becomes a sample, the
 * check's judgment becomes a line. `rewardkit judge <kind>` reads samples and writes rewards;
 * `rewardkit judge <kind> --bench-rows` is the same judge over these rows (`check claims` and
 * `judge pointwise` were its old names; `command` keeps them working).
 */
export interface JudgeRowFormat<R extends z.ZodType = z.ZodType> {
  /** The old row command, kept as a deprecated alias: `['check', 'claims']` is `rewardkit check claims`. */
  readonly command: readonly [group: string, name: string];
  /** One line for the command list. */
  readonly description: string;
  /** The rows and the output lines, for `--help`. */
  readonly help: string;
  /** Command lines, each without the leading `rewardkit <group> <name>`. */
  readonly examples: readonly string[];
  /** Rows judged at once by default. */
  readonly concurrency: number;
  /** Params the command does not take (a verdict threshold, which a line has no use for). */
  readonly omit?: readonly string[];
  /** A row; parsing names a malformed row's field. */
  readonly schema: R;
  /** The row names itself (`id`, `trace_id`): rows without one are not keyed by their place. */
  readonly ownIds?: boolean;
  readonly idOf: (row: z.output<R>) => string;
  /** What the kind's check reads: the row as a sample. */
  readonly sample: (row: z.output<R>) => Sample;
  /** The output line for a judged row (`error` on it when the check failed it). */
  readonly line: (judged: JudgedRow, row: z.output<R>) => RowLine;
  /**
   * A report over every line of the output (a resumed run's earlier lines too): printed after the
   * summary line (by the command that ran, as the summary line names it), and written as JSON with
   * `--bench-report <file>` where `file` is true.
   */
  readonly report?: {
    readonly build: (lines: readonly RowLine[]) => unknown;
    readonly format: (report: never, command: string) => string;
    readonly file?: boolean;
  };
}

/** What a line says its judgment cost: calls, tokens (prompt + completion) and the usage itself. */
export function lineCost(usage: LlmUsage | undefined): { calls: number; tokens: number; usage?: LlmUsage } {
  if (usage === undefined) return { calls: 0, tokens: 0 };
  return { calls: usage.calls, tokens: usage.prompt_tokens + usage.completion_tokens, usage };
}
