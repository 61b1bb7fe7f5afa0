import { describe, expect, test } from 'vitest';
import { formatRowsSummary } from './format-rows-summary.js';

describe('formatRowsSummary', () => {
  test.each([
    [
      { rows: 120, ok: 117, failed: 2, skipped: 1, interrupted: false, unwritten: 0 },
      'out.jsonl',
      'rewardkit judge pairwise: 120 rows, 117 ok, 2 failed, 1 skipped (resumed); output out.jsonl\n',
    ],
    [
      { rows: 3, ok: 3, failed: 0, skipped: 0, interrupted: false, unwritten: 0 },
      '<stdout>',
      'rewardkit judge pairwise: 3 rows, 3 ok, 0 failed, 0 skipped; output <stdout>\n',
    ],
    [
      { rows: 5, ok: 4, failed: 0, skipped: 1, interrupted: true, unwritten: 0 },
      'out.jsonl',
      'rewardkit judge pairwise: 5 rows, 4 ok, 0 failed, 1 skipped (resumed); output out.jsonl; interrupted: run the same command again to resume\n',
    ],
    [
      { rows: 2, ok: 2, failed: 0, skipped: 0, interrupted: true, unwritten: 3 },
      'out.jsonl',
      'rewardkit judge pairwise: 2 rows, 2 ok, 0 failed, 0 skipped; output out.jsonl; 3 not written (failed after the backend went down: a rerun handles them); interrupted: run the same command again to resume\n',
    ],
  ])('should state the counts and where the output went (%#)', (summary, output, expected) => {
    expect(formatRowsSummary('judge pairwise', summary, output)).toBe(expected);
  });
});
