import { issuesOf } from '../core/index.js';
import type { LabelledPair } from '../skills/evolve-judge/index.js';

/** The pairs read, and each malformed row as `file:line: field "x": message`. */
export interface LabelledPairsRead {
  readonly pairs: LabelledPair[];
  readonly rejected: string[];
}

/**
 * Labelled pairs through the benchmarks' pairwise reader: `{id, prompt, chosen, rejected}` or
 * `{id, prompt, first, second, label}` in JSONL, JSON or Parquet (`rewardkit bench --dataset
 * pairwise`'s rows). A malformed row or a repeated id is reported with its place and skipped,
 * never dropped silently; other keys are not read, so nothing else of a row reaches the judge.
 */
export async function readLabelledPairs(path: string): Promise<LabelledPairsRead> {
  const [{ PairwiseRowSchema }, { readDatasetRows }] = await Promise.all([
    import('../bench/datasets/pairwise.js'),
    import('../bench/index.js'),
  ]);
  const pairs: LabelledPair[] = [];
  const rejected: string[] = [];
  const ids = new Set<string>();
  for await (const row of readDatasetRows(path)) {
    if (row.error !== undefined) {
      rejected.push(`${row.where}: ${row.error}`);
      continue;
    }
    const parsed = PairwiseRowSchema.safeParse(row.value);
    if (!parsed.success) {
      const issues = issuesOf(parsed.error, '(row)');
      rejected.push(issues.map((i) => `${row.where}: field "${i.path}": ${i.message}`).join('; '));
      continue;
    }
    const { id, prompt, chosen, rejected: worse } = parsed.data;
    if (ids.has(id)) {
      rejected.push(`${row.where}: field "id": duplicate id "${id}"`);
      continue;
    }
    ids.add(id);
    pairs.push({ id, prompt, chosen, rejected: worse });
  }
  return { pairs, rejected };
}
