import { describe, expect, test } from 'vitest';
import { runReportHtml } from './run-report-html.js';

describe('runReportHtml', () => {
  test('should write one self-contained file with every store value escaped', () => {
    const html = runReportHtml({
      run: {
        id: 'run-1',
        spec_name: '<b>spec</b>',
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
          group: null,
          total_ms: 1,
          errors: 0,
          warnings: 0,
          response_preview: '<script>window.__pwned = 1</script>',
          response_chars: 35,
        },
      ],
    });
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;spec&lt;/b&gt;');
    expect(html).toContain('bad &quot;row&quot; &amp; &lt;more&gt;');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)=["']?https?:/i);
    expect(html.match(/<rect /g)).toHaveLength(3);
  });
});
