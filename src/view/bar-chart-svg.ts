import { linearScale, tickLabel } from './chart-scale.js';
import { escapeHtml } from './escape-html.js';
import { SERIES_COLORS } from './line-chart-layout.js';

export interface BarChartInput {
  /** One row of bars per category (a subset, a domain, a length bucket). */
  readonly categories: readonly string[];
  /** One value per category each; null draws no bar. */
  readonly series: readonly { readonly name: string; readonly values: readonly (number | null)[] }[];
  /** `grouped`: the series side by side; `stacked`: end to end (e.g. shares adding up to 1). */
  readonly mode?: 'grouped' | 'stacked';
  readonly xLabel: string;
  /** Default [0, 1]: bench metrics and shares. */
  readonly xDomain?: readonly [number, number];
  readonly width?: number;
}

const ROW = 18;
const LABEL = 150;
/** About how wide a character of the 10px legend text is. */
const CHAR = 6;

/** Legend items laid out left to right from `left`, wrapping before `right`: each one's x and line. */
function legendLayout(names: readonly string[], left: number, right: number) {
  let x = left;
  let line = 0;
  return names.map((name) => {
    const width = 13 + name.length * CHAR + 12;
    if (x > left && x + width > right) {
      x = left;
      line++;
    }
    const at = { x, line };
    x += width;
    return at;
  });
}

/**
 * Horizontal bars per category as an inline SVG, with round ticks and a legend for several series.
 * A grouped bar of 0 is drawn as a sliver, so that 0 reads apart from unknown (no bar).
 */
export function barChartSvg(input: BarChartInput): string {
  const e = escapeHtml;
  const mode = input.mode ?? 'grouped';
  const width = input.width ?? 520;
  const perRow = mode === 'stacked' ? 1 : input.series.length;
  const rowHeight = Math.max(ROW, perRow * 8 + 6);
  const legendAt =
    input.series.length > 1
      ? legendLayout(
          input.series.map((series) => series.name),
          LABEL,
          width - 14,
        )
      : [];
  const legend = legendAt.length > 0 ? 14 * (Math.max(...legendAt.map((l) => l.line)) + 1) + 2 : 0;
  const top = 6 + legend;
  const bottom = top + input.categories.length * rowHeight;
  const height = bottom + 34;
  const [lo, hi] = input.xDomain ?? [0, 1];
  const x = linearScale(lo, hi, [LABEL, width - 14], 5);
  const parts: string[] = [];
  for (const t of x.ticks)
    parts.push(
      `<line x1="${x.at(t).toFixed(1)}" x2="${x.at(t).toFixed(1)}" y1="${top}" y2="${bottom + 4}" stroke="#e6e9ed"/>`,
      `<text x="${x.at(t).toFixed(1)}" y="${bottom + 15}" text-anchor="middle" font-size="10" fill="#6b7480">${e(tickLabel(t))}</text>`,
    );
  input.categories.forEach((category, row) => {
    const y0 = top + row * rowHeight;
    parts.push(
      `<text x="${LABEL - 6}" y="${(y0 + rowHeight / 2 + 4).toFixed(1)}" text-anchor="end" font-size="11">${e(category)}</text>`,
    );
    let stackedAt = x.domain[0];
    input.series.forEach((series, i) => {
      const value = series.values[row];
      if (value === null || value === undefined || !Number.isFinite(value)) return;
      const color = SERIES_COLORS[i % SERIES_COLORS.length] as string;
      const from = mode === 'stacked' ? stackedAt : x.domain[0];
      const to = from + value;
      stackedAt = to;
      const barHeight = mode === 'stacked' ? rowHeight - 6 : 7;
      const y = mode === 'stacked' ? y0 + 3 : y0 + 3 + i * 8;
      parts.push(
        `<rect x="${x.at(from).toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(mode === 'stacked' ? 0 : 1.5, x.at(to) - x.at(from)).toFixed(1)}" height="${barHeight}" fill="${color}"><title>${e(`${category} · ${series.name}: ${tickLabel(value)}`)}</title></rect>`,
      );
    });
  });
  legendAt.forEach((at, i) => {
    const y = 4 + at.line * 14;
    parts.push(
      `<rect x="${at.x}" y="${y}" width="9" height="9" fill="${SERIES_COLORS[i % SERIES_COLORS.length]}"/>`,
      `<text x="${at.x + 13}" y="${y + 8}" font-size="10">${e((input.series[i] as { name: string }).name)}</text>`,
    );
  });
  parts.push(
    `<line x1="${LABEL}" x2="${LABEL}" y1="${top}" y2="${bottom}" stroke="#6b7480"/>`,
    `<text x="${((LABEL + width - 14) / 2).toFixed(1)}" y="${height - 4}" text-anchor="middle" font-size="11">${e(input.xLabel)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${e(input.xLabel)}">${parts.join('')}</svg>`;
}
