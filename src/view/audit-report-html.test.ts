import { describe, expect, test } from 'vitest';
import { type AuditRow, auditAssociations, auditReport } from '../audit/index.js';
import { auditReportHtml } from './audit-report-html.js';
import { expectSelfContained } from './test-utils/expect-self-contained.js';

const PWN = '<script>x</script>';

const rows: AuditRow[] = Array.from({ length: 30 }, (_, i) => ({
  id: `r${i}`,
  data_source: i % 2 === 0 ? 'gsm8k' : PWN,
  reward: i >= 15 ? 1 : 0,
  attributes: { tokens: i + 3, stated_confidence: null },
}));

const report = auditReport(PWN, {
  samples: 31,
  scored: 30,
  failed: [{ id: PWN, reasons: ['no reference'] }],
  rows,
  attributes: auditAssociations(rows, { seed: 0, resamples: 200 }),
  probes: [
    { name: 'length-padding', applied: 30, moved_share: 0.5, mean_shift: 0.5, ci: [0.3, 0.7], failed: 0 },
  ],
});

describe('auditReportHtml', () => {
  const html = auditReportHtml(report, rows);

  test('is self-contained and escapes every value from the data', () => {
    expectSelfContained(html);
    expect(html).toContain('Audit: &lt;script&gt;x&lt;/script&gt;');
  });

  test('tables the associations with intervals, flags an interval that excludes 0, and gives reasons for nulls', () => {
    const table = html.slice(
      html.indexOf('id="associations"'),
      html.indexOf('</table>', html.indexOf('id="associations"')),
    );
    expect(table).toMatch(/<td>tokens ⚑<\/td><td class="n">30<\/td><td>0\.8\d* \[0\.\d+, 0\.\d+\]<\/td>/);
    expect(table).toContain('— (0 samples, below the minimum of 10)');
    expect(html).toContain('id="by-source"');
    expect(html).toContain('tokens · gsm8k');
  });

  test('has the probes table, the failed rows, a scatter and violins per attribute', () => {
    expect(html).toMatch(/<table id="probes">[\s\S]*length-padding[\s\S]*0\.5 \[0\.3, 0\.7\]/);
    expect(html).toContain('no reference');
    expect(html).toContain('tokens vs reward');
    expect(html).toContain('tokens by reward');
    expect(html).toContain('reward 0 (15)');
    expect(html).toContain('no sample states it');
  });
});
