import type { BenchOutcome, JudgedRecord } from './bench-record.js';

/** How one group's judgments ended: correct, wrong, tie (or inconsistent orders), invalid. */
export type GroupOutcomes = { group: string; judgments: number } & Record<BenchOutcome, number>;

/** Judgment outcomes per group (subset, domain or source), groups in the order they first appear. */
export function groupOutcomes(records: readonly JudgedRecord[]): GroupOutcomes[] {
  const groups = new Map<string, GroupOutcomes>();
  for (const record of records) {
    let entry = groups.get(record.group);
    if (!entry) {
      entry = { group: record.group, judgments: 0, correct: 0, wrong: 0, tie: 0, invalid: 0 };
      groups.set(record.group, entry);
    }
    for (const judgment of record.judgments) {
      entry.judgments++;
      entry[judgment.outcome]++;
    }
  }
  return [...groups.values()];
}
