import { linearScale, tickLabel } from './chart-scale.js';
import { escapeHtml } from './escape-html.js';

const W = 300;
const H = 200;
const PAD = { left: 40, right: 8, top: 8, bottom: 28 } as const;

/** Points as an inline SVG scatter plot with round-tick axes, labelled under and beside. */
export function scatterSvg(
  points: readonly { readonly x: number; readonly y: number }[],
  labels: { readonly x: string; readonly y: string },
): string {
  const xs = linearScale(
    Math.min(...points.map((p) => p.x)),
    Math.max(...points.map((p) => p.x)),
    [PAD.left, W - PAD.right],
    4,
  );
  const ys = linearScale(
    Math.min(...points.map((p) => p.y)),
    Math.max(...points.map((p) => p.y)),
    [H - PAD.bottom, PAD.top],
    4,
  );
  const dots = points
    .map(
      (p) =>
        `<circle cx="${xs.at(p.x).toFixed(1)}" cy="${ys.at(p.y).toFixed(1)}" r="2.5" fill="#0b5cad" fill-opacity="0.45"/>`,
    )
    .join('');
  const xTicks = xs.ticks
    .map(
      (t) =>
        `<text x="${xs.at(t).toFixed(1)}" y="${H - PAD.bottom + 12}" font-size="9" text-anchor="middle">${tickLabel(t)}</text>`,
    )
    .join('');
  const yTicks = ys.ticks
    .map(
      (t) =>
        `<text x="${PAD.left - 4}" y="${(ys.at(t) + 3).toFixed(1)}" font-size="9" text-anchor="end">${tickLabel(t)}</text>`,
    )
    .join('');
  const axes = `<path d="M${PAD.left} ${PAD.top}V${H - PAD.bottom}H${W - PAD.right}" stroke="#6b7480" fill="none"/>`;
  const names = `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 4}" font-size="10" text-anchor="middle">${escapeHtml(labels.x)}</text><text x="10" y="${(PAD.top + H - PAD.bottom) / 2}" font-size="10" text-anchor="middle" transform="rotate(-90 10 ${(PAD.top + H - PAD.bottom) / 2})">${escapeHtml(labels.y)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img">${axes}${xTicks}${yTicks}${dots}${names}</svg>`;
}
