import { failedResult, type RewardResult } from '../core/index.js';
import type { SampleText } from '../store/index.js';
import type { OutputLine } from './store-jsonl-output.js';

/** A row's result as a stored row command keeps it, with the texts it judged where it has them. */
export interface StoredLine {
  readonly result: RewardResult;
  readonly text?: SampleText;
}

/**
 * What a stored row command (a judge's `--bench-rows`, EVPV's rows) keeps of each row it judged,
 * from the judgment until the row's line is stored, and the rows and failures it wrote. A line
 * with nothing kept was written by an earlier session that stopped before storing it: only the
 * output holds its judgment, in the format's own terms, so it is stored as failed, saying so.
 */
export function judgedRows<T>(resultOf: (line: OutputLine, judged: T) => StoredLine) {
  const kept = new Map<string, T>();
  const counts = { rows: 0, failed: 0 };
  return {
    keep: (id: string, judged: T) => kept.set(id, judged),
    resultOf(line: OutputLine): StoredLine {
      const judged = kept.get(line.id);
      kept.delete(line.id);
      if (judged !== undefined) return resultOf(line, judged);
      const error =
        typeof line.error === 'string'
          ? line.error
          : 'judged by an earlier session that stopped before storing it: its line is in the output; --no-resume judges it again';
      return { result: failedResult(line.id, [error]) };
    },
    tally(line: OutputLine): void {
      counts.rows++;
      if ('error' in line) counts.failed++;
    },
    headline: (command: string) => `${command}: ${counts.rows} rows, ${counts.failed} failed`,
  };
}
