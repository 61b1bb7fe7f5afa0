import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { repoRoot, tempDir } from './cli-harness.js';

// bench/view-scale.mjs at a smoke size: every request it times answers, on a store of its own
// (never bench/.cache), and its counts and exports hold together. Timings are not asserted.
type ViewScaleSection = (options: { sizes: number[]; cache: string }) => Promise<string>;

describe('bench/view-scale.mjs', () => {
  test('measures a 2,000-result store: every row of its tables, counts that add up, whole exports', async () => {
    const { viewScaleSection } = (await import(
      pathToFileURL(join(repoRoot, 'bench/view-scale.mjs')).href
    )) as {
      viewScaleSection: ViewScaleSection;
    };
    const section = await viewScaleSection({ sizes: [2000], cache: tempDir() });
    const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('|---'));
    expect(rows.map((line) => line.split(' | ')[0])).toEqual(
      expect.arrayContaining([
        '| baseline: the same first page by one indexed SELECT',
        '| sorted by reward, descending, the page at half the run',
        '| filter: data source substring (`ath`), next page',
        '| compare A vs B, first ask (lists the changed ids)',
        '| compare A vs B, filter changed, page 50',
      ]),
    );
    // One in five rows rescored in B, one in 97 failing in each (shifted by one): about 20% changed.
    const counts =
      /2,000: 2,000 shared ids, ([\d,]+) changed, ([\d,]+) improved, ([\d,]+) regressed, ([\d,]+) changed status/.exec(
        section,
      );
    const [changed, improved, regressed, status] = (counts?.slice(1) ?? []).map((n) =>
      Number(n.replace(/,/g, '')),
    );
    expect(changed).toBeGreaterThanOrEqual((improved ?? 0) + (regressed ?? 0));
    expect(changed).toBeLessThanOrEqual((improved ?? 0) + (regressed ?? 0) + (status ?? 0) + 400);
    expect(status).toBeGreaterThan(0);
    // Every row of the run exported, in each format.
    expect(section).toMatch(/\| 2,000: JSONL, every row \| 2,000 \|/);
    expect(section).toMatch(/\| 2,000: CSV, every row \| 2,000 \|/);
  }, 120_000);
});
