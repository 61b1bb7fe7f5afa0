import type { RewardHistogram } from '../store/index.js';

/** A reward histogram as an inline SVG bar chart (for self-contained HTML reports). */
export function histogramSvg(histogram: RewardHistogram, width = 260, height = 90): string {
  const peak = Math.max(1, ...histogram.counts);
  const bar = width / histogram.counts.length;
  const bars = histogram.counts
    .map((count, i) => {
      const h = (count / peak) * (height - 4);
      return `<rect x="${(i * bar + 1).toFixed(1)}" y="${(height - h).toFixed(1)}" width="${Math.max(1, bar - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="#0b5cad"><title>${count}</title></rect>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img">${bars}</svg>`;
}
