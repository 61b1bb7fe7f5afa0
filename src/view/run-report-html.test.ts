import { describe, expect, test } from 'vitest';
import { lowestRewardCount, type RunReportInput, runReportHtml } from './run-report-html.js';
import { expectSelfContained } from './test-utils/expect-self-contained.js';

describe('lowestRewardCount', () => {
  test.each([
    [0, 0],
    [1, 0],
    [2, 1],
    [10, 1],
    [11, 2],
    [499, 50],
    [1_000_000, 50],
  ])('should list %i rewarded samples as their lowest %i', (rewarded, lowest) => {
    expect(lowestRewardCount(rewarded)).toBe(lowest);
  });

  test('should list fewer samples than the run holds, whatever its size', () => {
    for (let rewarded = 1; rewarded <= 1000; rewarded++)
      expect(lowestRewardCount(rewarded)).toBeLessThan(rewarded);
  });
});

describe('runReportHtml', () => {
  test('should write one self-contained file with every store value escaped', () => {
    const html = runReportHtml(input);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;spec&lt;/b&gt;');
    expect(html).toContain('bad &quot;row&quot; &amp; &lt;more&gt;');
    expectSelfContained(html);
    expect(html.match(/<rect /g)).toHaveLength(3);
    expect(html).not.toContain('reward over results');
  });

  test('should plot the reward over results and, for a run that called a model, tokens and calls over time', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const html = runReportHtml({
      ...input,
      rewardSeries: [
        { before: 0, results: 10, rewarded: 10, mean_reward: 0.4, min_reward: 0, max_reward: 1 },
        { before: 10, results: 10, rewarded: 0, mean_reward: null, min_reward: null, max_reward: null },
        { before: 20, results: 10, rewarded: 9, mean_reward: 0.7, min_reward: 0.5, max_reward: 1 },
      ],
      costSeries: [
        {
          before: 0,
          results: 10,
          first_saved_at: at(0),
          last_saved_at: at(5),
          first_call_at: null,
          last_call_at: null,
          calls: 4,
          prompt_tokens: 400,
          completion_tokens: 40,
          cache_hits: 0,
        },
        {
          before: 10,
          results: 10,
          first_saved_at: at(6),
          last_saved_at: at(9),
          first_call_at: null,
          last_call_at: null,
          calls: 2,
          prompt_tokens: 200,
          completion_tokens: 20,
          cache_hits: 1,
        },
      ],
    });
    expectSelfContained(html);
    expect(html).toContain('<figcaption>reward over results</figcaption>');
    expect(html).toContain('<figcaption>tokens over time</figcaption>');
    expect(html).toContain('<figcaption>calls over time</figcaption>');
    // Two reward points (the bucket of failures has none), then the cumulative calls 0, 4, 6.
    expect(html).toContain('<title>mean reward: 0.7 at 30</title>');
    expect(html).toContain('<title>calls: 6 at 9</title>');
    expect(runReportHtml({ ...input, costSeries: [{ ...at0(), calls: 0 }] })).not.toContain(
      'calls over time',
    );
  });

  test('should plot usage over the results saved, and say so, when they were all saved at once', () => {
    const html = runReportHtml({
      ...input,
      costSeries: [
        { ...at0(), before: 0, results: 2, calls: 4 },
        { ...at0(), before: 2, results: 3, calls: 2 },
      ],
    });
    // Over time both points would sit at 0; over the results saved they are 2 and 5 apart.
    expect(html).toContain('<title>calls: 4 at 2</title>');
    expect(html).toContain('<title>calls: 6 at 5</title>');
    expect(html).toContain('results saved (saved together: no time to tell apart)');
    expect(html).not.toContain('time since the first result');
  });

  test("should plot usage over the judge calls' own times when the results were saved at once", () => {
    const call = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const html = runReportHtml({
      ...input,
      costSeries: [
        { ...at0(), before: 0, results: 2, calls: 4, first_call_at: call(1), last_call_at: call(4) },
        // Its calls overlapped the first bucket's: the point stays at the later time so far (4 s), never back.
        { ...at0(), before: 2, results: 3, calls: 2, first_call_at: call(2), last_call_at: call(3) },
        { ...at0(), before: 5, results: 1, calls: 1, first_call_at: call(5), last_call_at: call(9) },
      ],
    });
    expect(html).toContain('time since the first judge call was answered (s)');
    expect(html).toContain('<title>calls: 4 at 3</title>');
    expect(html).toContain('<title>calls: 6 at 3</title>');
    expect(html).toContain('<title>calls: 7 at 8</title>');
  });

  test('should fall back to save times when some bucket that called a judge has no call times', () => {
    const html = runReportHtml({
      ...input,
      costSeries: [
        {
          ...at0(),
          before: 0,
          results: 2,
          calls: 4,
          first_call_at: '2026-01-01T00:00:01.000Z',
          last_call_at: '2026-01-01T00:00:02.000Z',
        },
        { ...at0(), before: 2, results: 3, calls: 2 },
      ],
    });
    expect(html).not.toContain('judge call was answered');
    expect(html).toContain('results saved (saved together: no time to tell apart)');
  });
});

const at0 = () => ({
  before: 0,
  results: 1,
  first_saved_at: '2026-01-01T00:00:00.000Z',
  last_saved_at: '2026-01-01T00:00:00.000Z',
  first_call_at: null as string | null,
  last_call_at: null as string | null,
  calls: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  cache_hits: 0,
});

const input: RunReportInput = {
  run: {
    id: 'run-1',
    spec_name: '<b>spec</b>',
    kind: 'score',
    status: 'finished',
    input: 'in.jsonl',
    output: null,
    created_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
    results: 2,
    failed: 1,
    mean_reward: 0.5,
    duration_ms: 1000,
  },
  sources: [{ source: 'math', count: 1, mean: 0.5, invalid: 0 }],
  histograms: [{ source: null, min: 0, max: 1, counts: [1, 0, 1] }],
  failures: [{ sample_id: 'x', reasons: ['bad "row" & <more>'] }],
  samples: [
    {
      sample_id: 'pwn',
      status: 'ok',
      reward: 0,
      components: { math: 0 },
      data_source: null,
      first_error: null,
      group: null,
      total_ms: 1,
      errors: 0,
      warnings: 0,
      response_preview: '<script>window.__pwned = 1</script>',
      response_chars: 35,
    },
  ],
};
