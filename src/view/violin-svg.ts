import { linearScale, tickLabel } from './chart-scale.js';
import { escapeHtml } from './escape-html.js';
import { kernelDensity } from './kernel-density.js';

const W = 300;
const H = 200;
const PAD = { left: 40, right: 8, top: 8, bottom: 28 } as const;
const STEPS = 40;

/**
 * One violin per group: the kernel density of its values mirrored about the group's axis, widest
 * where values crowd, with a tick at the median; the group's label and count under it.
 */
export function violinSvg(
  groups: readonly { readonly label: string; readonly values: readonly number[] }[],
  valueLabel: string,
): string {
  const all = groups.flatMap((g) => g.values);
  const ys = linearScale(Math.min(...all), Math.max(...all), [H - PAD.bottom, PAD.top], 4);
  const slot = (W - PAD.left - PAD.right) / Math.max(1, groups.length);
  const grid = Array.from(
    { length: STEPS + 1 },
    (_, i) => ys.domain[0] + ((ys.domain[1] - ys.domain[0]) * i) / STEPS,
  );
  const shapes = groups
    .map((group, g) => {
      const mid = PAD.left + slot * (g + 0.5);
      const label = `<text x="${mid.toFixed(1)}" y="${H - PAD.bottom + 12}" font-size="9" text-anchor="middle">${escapeHtml(group.label)} (${group.values.length})</text>`;
      if (group.values.length === 0) return label;
      const density = kernelDensity(group.values, grid);
      const peak = Math.max(...density) || 1;
      const half = (d: number) => (d / peak) * slot * 0.42;
      const right = grid.map(
        (y, i) => `${(mid + half(density[i] as number)).toFixed(1)} ${ys.at(y).toFixed(1)}`,
      );
      const left = grid
        .map((y, i) => `${(mid - half(density[i] as number)).toFixed(1)} ${ys.at(y).toFixed(1)}`)
        .reverse();
      const sorted = [...group.values].sort((a, b) => a - b);
      const median = ys.at(sorted[Math.floor((sorted.length - 1) / 2)] as number).toFixed(1);
      return `<path d="M${[...right, ...left].join('L')}Z" fill="#0b5cad" fill-opacity="0.3" stroke="#0b5cad"/><path d="M${(mid - slot * 0.2).toFixed(1)} ${median}H${(mid + slot * 0.2).toFixed(1)}" stroke="#1d232a" stroke-width="2"/>${label}`;
    })
    .join('');
  const yTicks = ys.ticks
    .map(
      (t) =>
        `<text x="${PAD.left - 4}" y="${(ys.at(t) + 3).toFixed(1)}" font-size="9" text-anchor="end">${tickLabel(t)}</text>`,
    )
    .join('');
  const axis = `<path d="M${PAD.left} ${PAD.top}V${H - PAD.bottom}" stroke="#6b7480" fill="none"/>`;
  const name = `<text x="10" y="${(PAD.top + H - PAD.bottom) / 2}" font-size="10" text-anchor="middle" transform="rotate(-90 10 ${(PAD.top + H - PAD.bottom) / 2})">${escapeHtml(valueLabel)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img">${axis}${yTicks}${shapes}${name}</svg>`;
}
