import { escapeHtml } from './escape-html.js';
import { formatNumber } from './format-number.js';

/** Equal-width bins from `min` to `max` (a store's reward histogram, or advantages binned in memory). */
export interface BinnedCounts {
  readonly min: number;
  readonly max: number;
  readonly counts: readonly number[];
}

/** A histogram as an inline SVG bar chart (for self-contained HTML reports). */
export function histogramSvg(histogram: BinnedCounts, width = 260, height = 90): string {
  const peak = Math.max(1, ...histogram.counts);
  const bar = width / Math.max(1, histogram.counts.length);
  const bars = histogram.counts
    .map((count, i) => {
      const h = (count / peak) * (height - 4);
      return `<rect x="${(i * bar + 1).toFixed(1)}" y="${(height - h).toFixed(1)}" width="${Math.max(1, bar - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="#0b5cad"><title>${count}</title></rect>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img">${bars}</svg>`;
}

/** A histogram as a figure: its caption (with the count), the bars, and the range under them. */
export function histogramFigure(caption: string, histogram: BinnedCounts): string {
  const total = histogram.counts.reduce((a, b) => a + b, 0);
  return `<figure><figcaption>${escapeHtml(caption)} <span class="muted">(${total})</span></figcaption>${histogramSvg(histogram)}<div class="axis"><span>${formatNumber(histogram.min)}</span><span>${formatNumber(histogram.max)}</span></div></figure>`;
}
