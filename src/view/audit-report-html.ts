import {
  type Association,
  type AuditReport,
  type AuditRow,
  type Estimate,
  quantileBins,
  rewardKindOf,
} from '../audit/index.js';
import { escapeHtml } from './escape-html.js';
import { formatNumber } from './format-number.js';
import { htmlPage } from './html-page.js';
import { htmlTable, type TableCell } from './html-table.js';
import { scatterSvg } from './scatter-svg.js';
import { violinSvg } from './violin-svg.js';

const interval = (ci: readonly [number, number] | null) =>
  ci ? `[${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : '—';
const estimate = (e: Estimate): TableCell =>
  e.value === null
    ? { text: `— (${e.reason})`, className: 'muted' }
    : `${formatNumber(e.value)} ${interval(e.ci)}`;
const mi = (a: Association): TableCell =>
  a.mi === null
    ? { text: `— (${a.mi_reason})`, className: 'muted' }
    : `${formatNumber(a.mi)} ${interval(a.mi_ci)}`;
const excludesZero = (e: Estimate) => e.ci !== null && (e.ci[0] > 0 || e.ci[1] < 0);

/**
 * The violins of an attribute: for a discrete reward, the attribute's distribution at each reward
 * value (does a pass come with longer answers?); for a continuous one, the reward's distribution in
 * each quantile bin of the attribute.
 */
function violinGroups(rows: readonly AuditRow[], name: string) {
  const pairs = rows.flatMap((row) => {
    const x = row.attributes[name];
    return x === null || x === undefined ? [] : [{ x, reward: row.reward }];
  });
  if (rewardKindOf(pairs.map((p) => p.reward)) === 'discrete') {
    const levels = [...new Set(pairs.map((p) => p.reward))].sort((a, b) => a - b);
    return {
      label: name,
      groups: levels.map((level) => ({
        label: `reward ${formatNumber(level)}`,
        values: pairs.filter((p) => p.reward === level).map((p) => p.x),
      })),
    };
  }
  const bins = quantileBins(pairs.map((p) => p.x));
  const ids = [...new Set(bins)].sort((a, b) => a - b);
  return {
    label: 'reward',
    groups: ids.map((bin) => {
      const members = pairs.filter((_, i) => bins[i] === bin);
      const xs = members.map((p) => p.x);
      return {
        label: `${formatNumber(Math.min(...xs))}–${formatNumber(Math.max(...xs))}`,
        values: members.map((p) => p.reward),
      };
    }),
  };
}

function attributeFigures(rows: readonly AuditRow[], name: string): string {
  const points = rows.flatMap((row) => {
    const x = row.attributes[name];
    return x === null || x === undefined ? [] : [{ x, y: row.reward }];
  });
  if (points.length === 0)
    return `<figure><figcaption>${escapeHtml(name)}</figcaption><p class="muted">no sample states it</p></figure>`;
  const violins = violinGroups(rows, name);
  return `<figure><figcaption>${escapeHtml(name)} vs reward</figcaption>${scatterSvg(points, { x: name, y: 'reward' })}</figure><figure><figcaption>${escapeHtml(violins.label === 'reward' ? `reward by ${name} bin` : `${name} by reward`)}</figcaption>${violinSvg(violins.groups, violins.label)}</figure>`;
}

/**
 * A `rewardkit audit` run as one self-contained HTML file (inline CSS and SVG, no script, no
 * request): the association table with intervals (overall and per data source), the probes, the
 * failed rows, and per attribute a scatter against the reward and violins. Every value from the
 * data is escaped.
 */
export function auditReportHtml(report: AuditReport, rows: readonly AuditRow[]): string {
  const e = escapeHtml;
  const columns = [
    'attribute',
    'n',
    'pearson [95% CI]',
    'spearman [95% CI]',
    'MI, nats [95% CI]',
    'MI method',
  ];
  const associationRow = (label: string, a: Association): TableCell[] => [
    excludesZero(a.spearman) || excludesZero(a.pearson) ? `${label} ⚑` : label,
    a.n,
    estimate(a.pearson),
    estimate(a.spearman),
    mi(a),
    a.mi_method,
  ];
  const perSource = report.attributes.flatMap((a) =>
    Object.entries(a.by_source).map(([source, s]) => associationRow(`${a.name} · ${source}`, s)),
  );
  const body = [
    `<h1>Audit: ${e(report.spec)}</h1>`,
    `<p>${report.scored} of ${report.samples} samples scored; ${report.failed.length} failed (left out of every statistic). ⚑: an interval that excludes 0.</p>`,
    '<h2>Association with the reward</h2>',
    htmlTable(
      columns,
      report.attributes.map((a) => associationRow(a.name, a)),
      { id: 'associations' },
    ),
    ...(perSource.length > 0
      ? ['<h2>Per data source</h2>', htmlTable(columns, perSource, { id: 'by-source' })]
      : []),
    ...(report.probes.length > 0
      ? [
          '<h2>Counterfactual probes</h2>',
          htmlTable(
            ['probe', 'applied', 'moved share', 'mean shift [95% CI]', 'failed'],
            report.probes.map((p) => [
              p.name,
              p.applied,
              p.moved_share,
              p.mean_shift === null ? null : `${formatNumber(p.mean_shift)} ${interval(p.ci)}`,
              p.failed,
            ]),
            { id: 'probes' },
          ),
        ]
      : []),
    ...(report.failed.length > 0
      ? [
          '<h2>Failed scorings</h2>',
          htmlTable(
            ['id', 'reasons'],
            report.failed.slice(0, 50).map((f) => [f.id, { text: f.reasons.join('\n'), className: 'text' }]),
          ),
        ]
      : []),
    '<h2>Attributes</h2>',
    ...report.attributes.map((a) => `<div class="figs">${attributeFigures(rows, a.name)}</div>`),
  ];
  return htmlPage({ title: `Audit: ${report.spec}`, body: body.join('\n') });
}
