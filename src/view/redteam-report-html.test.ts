import { describe, expect, test } from 'vitest';
import type { ExploitSummary, RedteamReport } from '../redteam/index.js';
import { intervalPlotSvg } from './interval-plot-svg.js';
import { redteamReportHtml } from './redteam-report-html.js';
import { expectSelfContained } from './test-utils/expect-self-contained.js';

const summary = (name: string, ci: [number, number] | null, over: Partial<ExploitSummary> = {}) => ({
  name,
  applied: 4,
  lifted_share: ci ? 0.5 : null,
  mean_lift: ci ? (ci[0] + ci[1]) / 2 : null,
  ci,
  failed: 0,
  examples: [],
  ...over,
});

const report: RedteamReport = {
  spec: '<b>naive</b>',
  samples: 4,
  scorings: 12,
  cost_multiple: 3,
  judge_cost: {
    original: {
      calls: 8,
      tokens: 800,
      usage: {
        calls: 8,
        prompt_tokens: 700,
        completion_tokens: 100,
        latency_ms: 1,
        retries: 0,
        cache_hits: 0,
      },
    },
    exploits: {
      calls: 16,
      tokens: 1600,
      usage: {
        calls: 16,
        prompt_tokens: 1400,
        completion_tokens: 200,
        latency_ms: 1,
        retries: 0,
        cache_hits: 0,
      },
    },
  },
  exploits: [
    summary('answer-enumeration', [0.25, 0.75], {
      examples: [{ id: 'm0', before: 0, after: 1, response: '<script>alert(1)</script> 42' }],
    }),
    summary('hedging', [-0.25, 0.25]),
    summary('<img src=x>', null, { failed: 4 }),
  ],
  failures: [{ id: 's<1>', exploit: 'original', reasons: ['math: no <reference>'] }],
};

describe('redteamReportHtml', () => {
  test('is self-contained and escapes every text from the data', () => {
    const html = redteamReportHtml(report);
    expectSelfContained(html);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; 42');
    expect(html).not.toContain('<img src=x>');
    expect(html).not.toContain('<b>naive</b>');
    expect(html).toContain('s&lt;1&gt;');
    expect(html).toContain('math: no &lt;reference&gt;');
  });

  test('says which exploits lift, each verdict, the cost and the failures', () => {
    const html = redteamReportHtml(report);
    expect(html).toContain('<strong>1 exploit(s) lift the reward:</strong> answer-enumeration.');
    expect(html).toMatch(/<td>answer-enumeration<\/td><td>LIFTS<\/td>/);
    expect(html).toMatch(/<td>hedging<\/td><td>ok<\/td>/);
    expect(html).toMatch(/<td>&lt;img src=x&gt;<\/td><td>UNSCORED<\/td>/);
    expect(html).toContain('12 scorings (3.00× one scoring pass)');
    expect(html).toContain(
      'Judge calls: 8 (800 tokens) for the original pass, 16 (1600 tokens) for the exploits.',
    );
    expect(html).toContain('Failed scorings (1)');
  });
});

describe('intervalPlotSvg', () => {
  const rows = [
    { label: 'a', value: 0.5, interval: [0.25, 0.75] as const, flagged: true },
    { label: 'b', value: 0, interval: [-0.25, 0.25] as const },
    { label: 'c', value: null, interval: null },
  ];

  test('draws one whisker and dot per measured row, flagged ones in red, and the line at 0', () => {
    const svg = intervalPlotSvg({ rows, xLabel: 'lift' });
    expect(svg.match(/<circle /g)).toHaveLength(2);
    expect(svg.match(/stroke-width="2"/g)).toHaveLength(2);
    expect(svg.match(/fill="#c0392b"/g)).toHaveLength(1);
    expect(svg).toContain('stroke-dasharray="3 3"');
    expect(svg).toContain('<title>a: 0.5 [0.25, 0.75]</title>');
  });

  test('puts each whisker in order along the axis: lower bound left of the dot left of the upper', () => {
    const svg = intervalPlotSvg({ rows, xLabel: 'lift' });
    const whisker = /<line x1="([\d.]+)" x2="([\d.]+)" y1="([\d.]+)" y2="\3" stroke="#c0392b"/.exec(svg);
    const dot = /<circle cx="([\d.]+)"[^>]*fill="#c0392b"/.exec(svg);
    const [lo, hi, at] = [Number(whisker?.[1]), Number(whisker?.[2]), Number(dot?.[1])];
    expect(lo).toBeLessThan(at);
    expect(at).toBeLessThan(hi);
    // 0.5 lies halfway between 0.25 and 0.75.
    expect(at - lo).toBeCloseTo(hi - at, 5);
  });
});
