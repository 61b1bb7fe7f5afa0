import { describe, expect, test } from 'vitest';
import { type BenchReportHtmlInput, benchReportHtml } from './bench-report-html.js';
import { expectSelfContained } from './test-utils/expect-self-contained.js';

const PWN = '<script>window.__pwned = 1</script>';

const report: BenchReportHtmlInput = {
  dataset: 'rm-bench',
  title: 'RM-Bench',
  score: 0.8,
  metric: 'strict > credit',
  upstream: 'THU-KEG/RM-Bench@73c52d7 scripts/utils.py compute_accuracy',
  ours: [{ name: 'ties ½', score: 0.85, metric: `a tie is 0.5 ${PWN}` }],
  table: {
    columns: ['normal', 'hard', 'avg ties ½'],
    headline_columns: 2,
    rows: [
      { name: PWN, items: 3, values: [1, 0.5, 0.75] },
      { name: 'math', items: 2, values: [0.5, null, 0.5] },
    ],
  },
  detail: {
    sections_missing: ['Safety'],
    domains: { chat: { normal: 1, hard: 0.5 }, safety: null },
    nested: { deep: [{ a: [1, { b: PWN }] }] },
  },
  items: { judged: 5, failed: 30, unanswered: 0 },
  judge_metrics: {
    judgments: 5,
    position_consistency: 0.8,
    position_consistency_pairs: 5,
    tie_rate: 0.2,
    inconsistent_rate: 0.2,
    invalid_rate: 0,
    length: {
      pearson: 0.3,
      longer_preferred_rate: 0.75,
      pairs: 4,
      by_ratio: [
        { from: 1, to: 2, pairs: 3, longer_picked_rate: 2 / 3, labelled: 3, longer_better_rate: 1 / 3 },
        { from: 2, to: null, pairs: 1, longer_picked_rate: 1, labelled: 0, longer_better_rate: null },
      ],
    },
    calls_per_judgment: 2,
    prompt_tokens_per_judgment: 100,
    completion_tokens_per_judgment: 20,
  },
  outcomes: [{ group: PWN, judgments: 5, correct: 3, wrong: 1, tie: 1, invalid: 0 }],
  failures: [{ id: PWN, error: `row 4: field "chosen": ${PWN}` }],
  judge: 'genrm',
  model: `m ${PWN}`,
  seed: 0,
  output: 'out.jsonl',
};

describe('benchReportHtml', () => {
  test('should write one self-contained page, every value from the data escaped', () => {
    const html = benchReportHtml(report);
    expectSelfContained(html);
    expect(html).not.toContain('<script>');
    expect(html.split('&lt;script&gt;window.__pwned = 1&lt;/script&gt;').length).toBeGreaterThan(7);
  });

  test('should show the headline, ours beside it, the table with ours marked, and the plots', () => {
    const html = benchReportHtml(report);
    expect(html).toContain('<h2>Score: 0.8</h2>');
    expect(html).toContain('as computed by THU-KEG/RM-Bench@73c52d7');
    expect(html).toContain('<th class="ours">avg ties ½</th>');
    expect(html).toContain('<td class="n ours">0.75</td>');
    // Per group (three columns), outcomes, length by ratio.
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toContain('<td>1–2×</td>');
    expect(html).toContain('<td>2–∞×</td>');
    expect(html).toContain('The first 1 of 30');
  });

  test('should show the detail as tables where its shape allows, else as JSON', () => {
    const html = benchReportHtml(report);
    expect(html).toContain('<td>sections_missing</td><td>Safety</td>');
    expect(html).toMatch(/<h3>domains<\/h3>\n<table>\n<tr><th><\/th><th>normal<\/th><th>hard<\/th><\/tr>/);
    expect(html).toContain('<tr><td>safety</td><td>—</td><td>—</td></tr>');
    expect(html).toMatch(/<h3>nested<\/h3>\n<pre>\{/);
  });
});
