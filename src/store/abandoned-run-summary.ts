import type { RunTotals } from './run-views.js';

/**
 * The summary of a run closed because its process stopped renewing its lease (`startRunLease`):
 * the counts of what the store holds for it (never what the process may have attempted), and why
 * it was closed.
 */
export function abandonedRunSummary(totals: RunTotals, leaseMs: number) {
  return {
    rows: totals.results,
    scored: totals.results - totals.failed,
    failed: totals.failed,
    skipped: 0,
    mean_reward: totals.mean_reward,
    interrupted: `its process stopped renewing the run's lease for more than ${leaseMs / 1000} s (killed or lost); closed with the counts the store holds`,
  };
}
