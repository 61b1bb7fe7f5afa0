import { escapeHtml } from './escape-html.js';
import { type LineChartInput, lineChartLayout } from './line-chart-layout.js';

/** Points drawn as dots up to this many per series; more make a plain line. */
const MAX_DOTS = 60;

/** A line chart as an inline SVG (axes, round ticks, a legend when there are several series). */
export function lineChartSvg(input: LineChartInput): string {
  const l = lineChartLayout(input);
  const e = escapeHtml;
  const { left, right, top, bottom } = l.plot;
  const parts: string[] = [];
  if (l.band) parts.push(`<path d="${l.band}" fill="#0b5cad" fill-opacity="0.12" stroke="none"/>`);
  for (const t of l.yTicks)
    parts.push(
      `<line x1="${left}" x2="${right}" y1="${t.at.toFixed(1)}" y2="${t.at.toFixed(1)}" stroke="#e6e9ed"/>`,
      `<text x="${left - 4}" y="${(t.at + 4).toFixed(1)}" text-anchor="end" font-size="10" fill="#6b7480">${e(t.label)}</text>`,
    );
  for (const t of l.xTicks)
    parts.push(
      `<line x1="${t.at.toFixed(1)}" x2="${t.at.toFixed(1)}" y1="${bottom}" y2="${bottom + 4}" stroke="#6b7480"/>`,
      `<text x="${t.at.toFixed(1)}" y="${bottom + 15}" text-anchor="middle" font-size="10" fill="#6b7480">${e(t.label)}</text>`,
    );
  parts.push(
    `<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="#6b7480"/>`,
    `<text x="${(left + right) / 2}" y="${l.height - 4}" text-anchor="middle" font-size="11">${e(l.xLabel)}</text>`,
    `<text x="12" y="${(top + bottom) / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 12 ${(top + bottom) / 2})">${e(l.yLabel)}</text>`,
  );
  for (const line of l.lines) {
    parts.push(`<path d="${line.d}" fill="none" stroke="${line.color}" stroke-width="1.6"/>`);
    if (line.points.length <= MAX_DOTS)
      for (const p of line.points)
        parts.push(
          `<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="2.2" fill="${line.color}"><title>${e(p.title)}</title></circle>`,
        );
  }
  if (l.lines.length > 1)
    l.lines.forEach((line, i) => {
      const y = top + 4 + i * 13;
      parts.push(
        `<rect x="${right - 110}" y="${y}" width="9" height="9" fill="${line.color}"/>`,
        `<text x="${right - 97}" y="${y + 8}" font-size="10">${e(line.name)}</text>`,
      );
    });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${l.width}" height="${l.height}" role="img" aria-label="${e(input.yLabel)} over ${e(input.xLabel)}">${parts.join('')}</svg>`;
}
