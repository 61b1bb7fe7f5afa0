import { describe, expect, test } from 'vitest';
import { createShapingSummary } from '../rl/index.js';
import { advantagesReportHtml } from './advantages-report-html.js';
import { expectSelfContained } from './test-utils/expect-self-contained.js';

const PWN = '<script>window.__pwned = 1</script>';

function report(groups: number) {
  const summary = createShapingSummary({ keepGroups: 3 });
  for (let i = 0; i < groups; i++)
    summary.add(
      { group: `${PWN}${i}`, responses: ['a', 'b'] },
      { group: `${PWN}${i}`, method: 'brpo', advantages: [1, -1], shaped_rewards: [1, 0], filtered: i === 1 },
    );
  summary.addFailed({ group: PWN, line: 9, errors: [`groups.jsonl:9: ${PWN}`] });
  return advantagesReportHtml({
    method: 'brpo',
    options: { votes: 1, note: PWN },
    input: 'groups.jsonl',
    output: '<stdout>',
    seed: 7,
    summary: summary.summary(),
  });
}

describe('advantagesReportHtml', () => {
  test('should write one self-contained page, every value from the data escaped', () => {
    const html = report(5);
    expectSelfContained(html);
    expect(html).not.toContain('<script>');
    expect(html).toContain('<td>&lt;script&gt;window.__pwned = 1&lt;/script&gt;0</td>');
    expect(html).toContain('&quot;note&quot;: &quot;&lt;script&gt;');
    expect(html).toContain('<td class="text">groups.jsonl:9: &lt;script&gt;');
  });

  test('should show the first groups with shaped rewards and BRPO filtering, saying how many are left out', () => {
    const html = report(5);
    expect(html).toContain('The first 3 of 5 groups shaped');
    expect(html).toContain('<th>rewards (shaped)</th>');
    expect(html).toContain('<th>filtered</th>');
    expect(html).toContain('<td>filtered (BRPO skew)</td><td class="n">1</td>');
    expect(html).not.toContain('clip bounds');
    // Advantage and reward histograms; no clip bounds.
    expect(html.match(/<figure>/g)).toHaveLength(2);
    expect(report(2)).not.toContain('The first');
  });
});
