import type { JsonlRowsSummary } from './map-jsonl-rows.js';

/**
 * The one line a `verify` or `judge` command ends with on stderr, so stdout stays pure JSONL:
 * `rewardkit judge pairwise: 120 rows, 117 ok, 2 failed, 1 skipped (resumed); output out.jsonl`.
 */
export function formatRowsSummary(command: string, summary: JsonlRowsSummary, output: string): string {
  const skipped = `${summary.skipped} skipped${summary.skipped > 0 ? ' (resumed)' : ''}`;
  const stopped = summary.interrupted ? '; interrupted: run the same command again to resume' : '';
  const unwritten =
    summary.unwritten > 0
      ? `; ${summary.unwritten} not written (failed after the backend went down: a rerun handles them)`
      : '';
  return `rewardkit ${command}: ${summary.rows} rows, ${summary.ok} ok, ${summary.failed} failed, ${skipped}; output ${output}${unwritten}${stopped}\n`;
}
