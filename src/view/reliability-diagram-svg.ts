import type { ReliabilityBin } from '../calibration/index.js';
import { escapeHtml } from './escape-html.js';
import { formatNumber } from './format-number.js';

const SIZE = 240;
const LEFT = 40;
const TOP = 10;
const STRIP = 40;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * A reliability diagram as an inline SVG: observed frequency against mean predicted probability per
 * bin, over the diagonal of perfect calibration, with the bins' counts as bars in a strip below (an
 * empty bin draws no point and no bar, so it reads apart from a bin whose frequency is 0).
 */
export function reliabilityDiagramSvg(input: {
  readonly title: string;
  readonly bins: readonly ReliabilityBin[];
}): string {
  const e = escapeHtml;
  const x = (v: number) => LEFT + v * SIZE;
  const y = (v: number) => TOP + (1 - v) * SIZE;
  // Room under the tick labels for the count above the tallest bar.
  const stripTop = TOP + SIZE + 32;
  const height = stripTop + STRIP + 22;
  const width = LEFT + SIZE + 14;
  const maxCount = Math.max(1, ...input.bins.map((b) => b.count));
  const parts: string[] = [];
  for (const t of TICKS)
    parts.push(
      `<line x1="${x(0)}" x2="${x(1)}" y1="${y(t)}" y2="${y(t)}" stroke="#e6e9ed"/>`,
      `<text x="${LEFT - 4}" y="${y(t) + 4}" text-anchor="end" font-size="10" fill="#6b7480">${t}</text>`,
      `<text x="${x(t)}" y="${TOP + SIZE + 14}" text-anchor="middle" font-size="10" fill="#6b7480">${t}</text>`,
    );
  parts.push(
    `<rect x="${x(0)}" y="${y(1)}" width="${SIZE}" height="${SIZE}" fill="none" stroke="#6b7480"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#6b7480" stroke-dasharray="4 3"><title>perfect calibration</title></line>`,
  );
  const filled = input.bins.filter((b) => b.count > 0 && b.mean_score !== null && b.observed !== null);
  if (filled.length > 1)
    parts.push(
      `<path d="${filled.map((b, i) => `${i === 0 ? 'M' : 'L'}${x(b.mean_score as number).toFixed(1)},${y(b.observed as number).toFixed(1)}`).join('')}" fill="none" stroke="#0b5cad" stroke-width="1.6"/>`,
    );
  const binTitle = (b: ReliabilityBin) =>
    `[${formatNumber(b.lo)}, ${formatNumber(b.hi)}): ${b.count} points, mean score ${formatNumber(b.mean_score)}, observed ${formatNumber(b.observed)}`;
  for (const b of filled)
    parts.push(
      `<circle cx="${x(b.mean_score as number).toFixed(1)}" cy="${y(b.observed as number).toFixed(1)}" r="3" fill="#0b5cad"><title>${e(binTitle(b))}</title></circle>`,
    );
  for (const b of input.bins) {
    if (b.count === 0) continue;
    const h = (b.count / maxCount) * STRIP;
    parts.push(
      `<rect x="${(x(b.lo) + 1).toFixed(1)}" y="${(stripTop + STRIP - h).toFixed(1)}" width="${Math.max(1, x(b.hi) - x(b.lo) - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="#8a9bb0"><title>${e(binTitle(b))}</title></rect>`,
      `<text x="${((x(b.lo) + x(b.hi)) / 2).toFixed(1)}" y="${(stripTop + STRIP - h - 2).toFixed(1)}" text-anchor="middle" font-size="8" fill="#6b7480">${b.count}</text>`,
    );
  }
  parts.push(
    `<line x1="${x(0)}" x2="${x(1)}" y1="${stripTop + STRIP}" y2="${stripTop + STRIP}" stroke="#6b7480"/>`,
    `<text x="${x(0.5)}" y="${height - 4}" text-anchor="middle" font-size="11">mean predicted probability (bars: points per bin)</text>`,
    `<text x="12" y="${y(0.5)}" text-anchor="middle" font-size="11" transform="rotate(-90 12 ${y(0.5)})">observed frequency</text>`,
  );
  return `<figure><figcaption>${e(input.title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${e(`reliability diagram: ${input.title}`)}">${parts.join('')}</svg></figure>`;
}
