import { describe, expect, test } from 'vitest';
import { barChartSvg } from './bar-chart-svg.js';
import { binValues } from './bin-values.js';
import { htmlPage } from './html-page.js';
import { htmlTable } from './html-table.js';
import { lineChartSvg } from './line-chart-svg.js';
import { expectSelfContained } from './test-utils/expect-self-contained.js';

const PWN = '<script>window.__pwned = 1</script>';

describe('the HTML report pieces', () => {
  test('should escape every cell and header of a table, numbers to 4 decimals, unknown as —', () => {
    const html = htmlTable(
      [PWN, 'n'],
      [
        [PWN, 1 / 3],
        [{ text: 'a & b', className: 'text' }, null],
      ],
      {
        columnClasses: [undefined, 'ours'],
      },
    );
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('<td class="n ours">0.3333</td>');
    expect(html).toContain('<td class="text">a &amp; b</td>');
    expect(html).toContain('<td class="ours">—</td>');
  });

  test('should escape series names and labels in a line chart and draw one path per series', () => {
    const svg = lineChartSvg({
      series: [
        {
          name: PWN,
          points: [
            { x: 0, y: 0 },
            { x: 1, y: 1 },
          ],
        },
        { name: 'b', points: [{ x: 0, y: 1 }] },
      ],
      band: [{ x: 0, low: 0, high: 1 }],
      xLabel: `x ${PWN}`,
      yLabel: 'y',
    });
    expect(svg).not.toContain('<script');
    expect(svg.match(/<path d="M[^"]*" fill="none"/g)).toHaveLength(2);
    expect(svg).toContain('fill-opacity="0.12"');
  });

  test('should escape categories in a bar chart and draw one bar per known value', () => {
    const svg = barChartSvg({
      categories: [PWN, 'b'],
      series: [
        { name: 'correct', values: [0.5, 0.25] },
        { name: 'wrong', values: [0.5, null] },
      ],
      mode: 'stacked',
      xLabel: 'share',
    });
    expect(svg).not.toContain('<script');
    expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(3);
  });

  test('should put the page in a shell that forbids every request', () => {
    const html = htmlPage({ title: PWN, body: '<p>x</p>' });
    expectSelfContained(html);
    expect(html).toContain('<title>&lt;script&gt;');
  });

  test('should bin values in memory as the stores bin in SQL', () => {
    expect(binValues([0, 0.5, 1, 1, Number.NaN], 4)).toEqual({ min: 0, max: 1, counts: [1, 0, 1, 2] });
    expect(binValues(new Float64Array([2, 2]), 3)).toEqual({ min: 2, max: 2, counts: [2, 0, 0] });
    expect(binValues([], 2)).toEqual({ min: 0, max: 0, counts: [0, 0] });
  });
});
