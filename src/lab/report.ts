import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importOptional } from '../core/index.js';
import { type ClaimVerdict, verdictLine } from './claim-verdict.js';

/** A line chart: one series per value of `series`, `y` against `x`. */
export interface LineChart {
  title: string;
  rows: Record<string, unknown>[];
  x: string;
  y: string;
  series: string;
  logY?: boolean;
}

export interface Table {
  title: string;
  columns: string[];
  rows: (string | number | null)[][];
}

export interface LabReport {
  title: string;
  /** The paper's claim, as the notes state it. */
  claim: string;
  /** One per claim, decided over seeds (claim-verdict.ts); written as they are to `summary.json`. */
  verdicts: ClaimVerdict[];
  charts: LineChart[];
  tables: Table[];
  metrics: Record<string, unknown>[];
  summary: Record<string, unknown>;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/** Renders a chart to SVG with vega-lite + vega on the server: no browser, no CDN. */
async function renderChart(chart: LineChart): Promise<string> {
  // The renderer is optional, like tfjs: a missing one is the lab's install line.
  const vl = await importOptional('lab', () => import('vega-lite'));
  const vega = await importOptional('lab', () => import('vega'));
  const finite = chart.rows.filter((r) => Number.isFinite(r[chart.y] as number));
  const spec = vl.compile({
    title: chart.title,
    width: 640,
    height: 260,
    data: { values: finite },
    mark: { type: 'line', strokeWidth: 1.5 },
    encoding: {
      x: { field: chart.x, type: 'quantitative' },
      y: { field: chart.y, type: 'quantitative', scale: chart.logY ? { type: 'log' } : { zero: false } },
      color: { field: chart.series, type: 'nominal' },
    },
  }).spec;
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

function tableHtml(table: Table): string {
  const cell = (v: string | number | null) =>
    `<td>${v === null ? '—' : typeof v === 'number' ? escapeHtml(Number.isInteger(v) ? String(v) : v.toPrecision(4)) : escapeHtml(v)}</td>`;
  return `<h2>${escapeHtml(table.title)}</h2><table><tr>${table.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>${table.rows
    .map((r) => `<tr>${r.map(cell).join('')}</tr>`)
    .join('')}</table>`;
}

/** Writes `metrics.jsonl` (one line per logged step), `summary.json` and a self-contained `report.html`. */
export async function writeLabReport(dir: string, report: LabReport): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'metrics.jsonl'), report.metrics.map((m) => `${JSON.stringify(m)}\n`).join(''));
  writeFileSync(
    join(dir, 'summary.json'),
    `${JSON.stringify({ title: report.title, claim: report.claim, verdicts: report.verdicts, ...report.summary }, null, 2)}\n`,
  );
  const charts = await Promise.all(report.charts.map(renderChart));
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(report.title)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f4f4f4}.verdict{font-weight:600}figure{margin:1em 0}</style></head>
<body><h1>${escapeHtml(report.title)}</h1>
<p><b>Claim.</b> ${escapeHtml(report.claim)}</p>
${report.verdicts.map((v) => `<p class="verdict">${escapeHtml(verdictLine(v))}</p>`).join('\n')}
${charts.map((svg) => `<figure>${svg}</figure>`).join('\n')}
${report.tables.map(tableHtml).join('\n')}
</body></html>
`;
  writeFileSync(join(dir, 'report.html'), html);
}
