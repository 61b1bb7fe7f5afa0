import type { AnyBenchDataset, BenchScore } from './bench-dataset.js';
import type { BenchRecord, JudgedRecord } from './bench-record.js';
import { type GroupOutcomes, groupOutcomes } from './group-outcomes.js';
import { type JudgeMetrics, judgeMetrics } from './judge-metrics.js';

/** What `rewardkit bench` writes with `--report` and prints as a table. */
export interface BenchReport extends BenchScore {
  dataset: string;
  title: string;
  /**
   * Items in the output that were judged / that failed (malformed rows, errors while judging) /
   * among the judged, those with no readable verdict at all (every judgment invalid: the judge
   * never answered, or never readably), which the benchmark's rule scores but the run must not
   * pass over in silence.
   */
  items: { judged: number; failed: number; unanswered: number };
  judge_metrics: JudgeMetrics;
  /** How each group's judgments ended (correct, wrong, tie, invalid), groups in input order. */
  outcomes: GroupOutcomes[];
  /** The first failures with their reasons; `items.failed` has the count. */
  failures: Array<{ id: string; error: string }>;
}

const KEPT_FAILURES = 20;

/** The report over every record of a run's output: the benchmark's metric and the judge metrics. */
export function buildBenchReport(dataset: AnyBenchDataset, records: readonly BenchRecord[]): BenchReport {
  const judged = records.filter((r): r is JudgedRecord => r.status === 'ok');
  const failed = records.filter((r) => r.status === 'failed');
  return {
    dataset: dataset.name,
    title: dataset.title,
    ...dataset.score(judged),
    items: {
      judged: judged.length,
      failed: failed.length,
      unanswered: judged.filter((r) => r.judgments.every((j) => j.outcome === 'invalid')).length,
    },
    judge_metrics: judgeMetrics(judged.flatMap((r) => r.judgments)),
    outcomes: groupOutcomes(judged),
    failures: failed.slice(0, KEPT_FAILURES).map((r) => ({ id: r.id, error: r.error })),
  };
}
