import { linearScale, tickLabel } from './chart-scale.js';
import { escapeHtml } from './escape-html.js';

export interface IntervalRow {
  readonly label: string;
  /** The point estimate; null draws the row's label and nothing else (not measured). */
  readonly value: number | null;
  readonly interval: readonly [number, number] | null;
  /** Drawn in the alarm colour: e.g. an interval wholly above 0. */
  readonly flagged?: boolean;
}

const ROW = 18;
const LABEL = 160;

/**
 * A forest plot as an inline SVG: one row per estimate, its interval as a whisker and its value as
 * a dot, against a dashed line at `reference` (0 for lifts), so which intervals clear it reads at a
 * glance.
 */
export function intervalPlotSvg(input: {
  readonly rows: readonly IntervalRow[];
  readonly xLabel: string;
  readonly reference?: number;
  readonly width?: number;
}): string {
  const e = escapeHtml;
  const width = input.width ?? 520;
  const reference = input.reference ?? 0;
  const ends = input.rows.flatMap((r) => [...(r.interval ?? []), ...(r.value === null ? [] : [r.value])]);
  const x = linearScale(Math.min(reference, ...ends), Math.max(reference, ...ends), [LABEL, width - 14], 5);
  const top = 6;
  const bottom = top + input.rows.length * ROW;
  const height = bottom + 34;
  const parts: string[] = [];
  for (const t of x.ticks)
    parts.push(
      `<line x1="${x.at(t).toFixed(1)}" x2="${x.at(t).toFixed(1)}" y1="${top}" y2="${bottom + 4}" stroke="#e6e9ed"/>`,
      `<text x="${x.at(t).toFixed(1)}" y="${bottom + 15}" text-anchor="middle" font-size="10" fill="#6b7480">${e(tickLabel(t))}</text>`,
    );
  parts.push(
    `<line x1="${x.at(reference).toFixed(1)}" x2="${x.at(reference).toFixed(1)}" y1="${top}" y2="${bottom}" stroke="#6b7480" stroke-dasharray="3 3"/>`,
  );
  input.rows.forEach((row, i) => {
    const y = top + i * ROW + ROW / 2;
    const color = row.flagged ? '#c0392b' : '#2f6db5';
    parts.push(
      `<text x="${LABEL - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end" font-size="11"${row.value === null ? ' fill="#6b7480"' : ''}>${e(row.label)}</text>`,
    );
    if (row.value === null) return;
    const tip = `${row.label}: ${tickLabel(row.value)}${row.interval ? ` [${tickLabel(row.interval[0])}, ${tickLabel(row.interval[1])}]` : ''}`;
    if (row.interval)
      parts.push(
        `<line x1="${x.at(row.interval[0]).toFixed(1)}" x2="${x.at(row.interval[1]).toFixed(1)}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="2"/>`,
      );
    parts.push(
      `<circle cx="${x.at(row.value).toFixed(1)}" cy="${y}" r="3.5" fill="${color}"><title>${e(tip)}</title></circle>`,
    );
  });
  parts.push(
    `<text x="${((LABEL + width - 14) / 2).toFixed(1)}" y="${height - 4}" text-anchor="middle" font-size="11">${e(input.xLabel)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${e(input.xLabel)}">${parts.join('')}</svg>`;
}
