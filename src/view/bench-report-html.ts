import type { BenchReport } from '../bench/index.js';
import { barChartSvg } from './bar-chart-svg.js';
import { detailHtml } from './detail-html.js';
import { escapeHtml } from './escape-html.js';
import { formatNumber } from './format-number.js';
import { htmlPage } from './html-page.js';
import { htmlTable } from './html-table.js';

/** A bench report as `rewardkit bench` writes it: the report and how the run was set up. */
export interface BenchReportHtmlInput extends BenchReport {
  readonly judge?: string;
  readonly model?: string;
  readonly mode?: string;
  readonly seed?: number;
  /** The results file the report was built from. */
  readonly output?: string;
}

/** The table's columns plotted per group: all of them when few, else the headline's. */
const MAX_PLOTTED_COLUMNS = 3;

const figure = (caption: string, svg: string) =>
  `<figure><figcaption>${escapeHtml(caption)}</figcaption>${svg}</figure>`;

const rate = (n: number, d: number) => (d > 0 ? n / d : null);

/**
 * A benchmark run as one self-contained HTML file (inline CSS and SVG, no script, no request): the
 * headline and our figures beside it, the metric table per group with its plot, what the judge did
 * (position consistency, ties, invalid, length: correlation and the longer-picked share by length
 * ratio), the outcomes per group, the benchmark's detail and the first failures. All data escaped.
 */
export function benchReportHtml(report: BenchReportHtmlInput): string {
  const e = escapeHtml;
  const { table } = report;
  const m = report.judge_metrics;
  const oursFrom = table.headline_columns < table.columns.length ? table.headline_columns : -1;
  const plotted = table.columns.length <= MAX_PLOTTED_COLUMNS ? table.columns.length : table.headline_columns;
  const groupsChart = barChartSvg({
    categories: table.rows.map((r) => r.name),
    series: table.columns.slice(0, plotted).map((name, c) => ({
      name,
      values: table.rows.map((r) => r.values[c] ?? null),
    })),
    xLabel: table.columns.length === 1 ? (table.columns[0] as string) : 'value',
  });
  const outcomes = report.outcomes;
  const outcomesChart = barChartSvg({
    categories: outcomes.map((o) => o.group),
    series: (['correct', 'wrong', 'tie', 'invalid'] as const).map((name) => ({
      name,
      values: outcomes.map((o) => rate(o[name], o.judgments)),
    })),
    mode: 'stacked',
    xLabel: 'share of judgments',
  });
  const byRatio = m.length.by_ratio;
  const ratioName = (b: (typeof byRatio)[number]) => `${b.from}–${b.to ?? '∞'}×`;
  const lengthChart = barChartSvg({
    categories: byRatio.map(ratioName),
    series: [
      { name: 'judge picked longer', values: byRatio.map((b) => b.longer_picked_rate) },
      { name: 'label: longer better', values: byRatio.map((b) => b.longer_better_rate) },
    ],
    xLabel: 'share of decided pairs, by longer / shorter length',
  });
  const setup: [string, string | number | null | undefined][] = [
    ['dataset', report.dataset],
    ['judge', report.judge],
    ['model', report.model],
    ['mode', report.dataset === 'rewardbench2' ? report.mode : undefined],
    ['seed', report.seed],
    ['items judged', report.items.judged],
    ['items failed', report.items.failed],
    ['output', report.output],
  ];
  const body = `<h1>${e(report.title)} <span class="muted">— rewardkit bench</span></h1>
${htmlTable(
  [],
  setup.filter(([, v]) => v !== undefined),
)}
<h2>Score: ${e(formatNumber(report.score))}</h2>
<p>${e(report.metric)}${report.upstream ? `<br><span class="muted">as computed by ${e(report.upstream)}</span>` : ''}</p>
${
  report.ours.length > 0
    ? `<h3>Ours, beside the headline</h3>\n${htmlTable(
        ['figure', 'score', 'how it differs'],
        report.ours.map((f) => [f.name, f.score, f.metric]),
      )}`
    : ''
}
<h2>Per group</h2>
${htmlTable(
  ['group', 'items', ...table.columns],
  table.rows.map((r) => [r.name, r.items, ...r.values]),
  {
    columnClasses: [
      undefined,
      undefined,
      ...table.columns.map((_, i) => (i === oursFrom ? 'ours' : undefined)),
    ],
  },
)}
${oursFrom > 0 ? `<p class="muted">Columns from the marked one on are ours; before it, ${report.upstream ? 'as the benchmark computes them' : 'as the score is computed'}.</p>` : ''}
<div class="figs">${figure(`per group: ${table.columns.slice(0, plotted).join(', ')}`, groupsChart)}</div>
<h2>The judge</h2>
${htmlTable(
  ['', 'value', 'over'],
  [
    ['judgments', m.judgments, null],
    [
      'position consistency',
      m.position_consistency,
      `${m.position_consistency_pairs} pairs judged in both orders`,
    ],
    ['tie rate', m.tie_rate, 'judgments'],
    ['inconsistent orders', m.inconsistent_rate, 'pairwise judgments'],
    ['invalid rate', m.invalid_rate, 'judgments'],
    ['length: pearson', m.length.pearson, `verdict vs length difference, ${m.length.pairs} decided pairs`],
    ['length: longer picked', m.length.longer_preferred_rate, 'decided pairs of unequal length'],
    ['calls / judgment', m.calls_per_judgment, null],
    ['prompt tokens / judgment', m.prompt_tokens_per_judgment, null],
    ['completion tokens / judgment', m.completion_tokens_per_judgment, null],
  ],
)}
<div class="figs">
${figure('outcomes per group', outcomesChart)}
${m.length.pairs > 0 ? figure('length: longer picked vs longer better', lengthChart) : ''}
</div>
${htmlTable(
  ['group', 'judgments', 'correct', 'wrong', 'tie', 'invalid'],
  outcomes.map((o) => [o.group, o.judgments, o.correct, o.wrong, o.tie, o.invalid]),
)}
${
  m.length.pairs > 0
    ? htmlTable(
        ['longer / shorter', 'decided pairs', 'judge picked longer', 'labelled', 'label: longer better'],
        byRatio.map((b) => [ratioName(b), b.pairs, b.longer_picked_rate, b.labelled, b.longer_better_rate]),
      )
    : ''
}
<h2>Detail</h2>
${detailHtml(report.detail)}
<h2>Failures (${report.items.failed})</h2>
${report.items.failed > report.failures.length ? `<p class="muted">The first ${report.failures.length} of ${report.items.failed}; the output has every one.</p>` : ''}
${htmlTable(
  ['item', 'error'],
  report.failures.map((f) => [f.id, { text: f.error, className: 'text' }]),
)}`;
  return htmlPage({ title: `rewardkit bench: ${report.title}`, body });
}
