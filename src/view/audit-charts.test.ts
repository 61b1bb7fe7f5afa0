import { describe, expect, test } from 'vitest';
import { kernelDensity } from './kernel-density.js';
import { scatterSvg } from './scatter-svg.js';
import { violinSvg } from './violin-svg.js';

const PWN = '<script>x</script>';

describe('the audit charts', () => {
  test('a kernel density integrates to about 1 and peaks where the values crowd', () => {
    const values = [0, 0.1, 0.2, 0.15, 0.05, 3];
    const grid = Array.from({ length: 2001 }, (_, i) => -5 + i * 0.006);
    const density = kernelDensity(values, grid);
    const area = density.reduce((s, d) => s + d * 0.006, 0);
    expect(area).toBeCloseTo(1, 2);
    const peak = grid[density.indexOf(Math.max(...density))] as number;
    expect(peak).toBeGreaterThan(-0.2);
    expect(peak).toBeLessThan(0.4);
  });

  test('a constant sample still draws (a thin spike at its value)', () => {
    const [at, away] = kernelDensity([2, 2, 2], [2, 3]);
    expect(at).toBeGreaterThan(0);
    expect(away).toBeCloseTo(0, 10);
  });

  test('a scatter draws one dot per point and escapes its labels', () => {
    const svg = scatterSvg(
      [
        { x: 1, y: 0 },
        { x: 2, y: 1 },
        { x: 3, y: 1 },
      ],
      { x: PWN, y: 'reward' },
    );
    expect(svg.match(/<circle/g)).toHaveLength(3);
    expect(svg).not.toContain('<script');
  });

  test('a violin per group with its count, a median tick per non-empty group, labels escaped', () => {
    const svg = violinSvg(
      [
        { label: PWN, values: [1, 2, 3, 4] },
        { label: 'b', values: [] },
        { label: 'c', values: [5, 5, 6] },
      ],
      'tokens',
    );
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;x&lt;/script&gt; (4)');
    expect(svg).toContain('b (0)');
    expect(svg.match(/Z"/g)).toHaveLength(2);
  });
});
