import type { ShapingSummary } from '../rl/index.js';
import type { ValueStats } from '../rl/shaping-summary.js';
import { binValues } from './bin-values.js';
import { escapeHtml } from './escape-html.js';
import { formatNumber } from './format-number.js';
import { histogramFigure } from './histogram-svg.js';
import { htmlPage } from './html-page.js';
import { htmlTable, type TableCell } from './html-table.js';

export interface AdvantagesReportInput {
  readonly method: string;
  /** The method's options as parsed (defaults filled). */
  readonly options: unknown;
  readonly input: string;
  readonly output: string;
  readonly seed: number;
  readonly stateKey?: string;
  readonly interrupted?: boolean;
  readonly summary: ShapingSummary;
}

const BINS = 30;

const list = (values: readonly (number | null)[]) => values.map((v) => formatNumber(v)).join(' ');
const share = (n: number, d: number) => (d > 0 ? `${n} (${formatNumber((100 * n) / d)}%)` : String(n));

function statsRow(name: string, s: ValueStats): TableCell[] {
  return [name, s.count, s.mean, s.std, s.min, s.max];
}

/**
 * A run of `rewardkit advantages` as one self-contained HTML file (inline CSS and SVG, no script, no
 * request): the method and its options, counts (failed groups and rollouts, groups with no learning
 * signal), statistics and histograms of advantages, rewards and ETR clip bounds, the first groups
 * in full and the first failures. Every value from the data is escaped.
 */
export function advantagesReportHtml(report: AdvantagesReportInput): string {
  const e = escapeHtml;
  const s = report.summary;
  const hasClip = s.clip_low.count > 0;
  const figures = [
    histogramFigure('advantage (scored rollouts)', binValues(s.values.advantages, BINS)),
    ...(s.rewards.count > 0
      ? [histogramFigure('reward the advantages came from', binValues(s.values.rewards, BINS))]
      : []),
    ...(hasClip
      ? [
          histogramFigure('clip bound low (1 − ε⁻)', binValues(s.values.clip_low, BINS)),
          histogramFigure('clip bound high (1 + ε⁺)', binValues(s.values.clip_high, BINS)),
        ]
      : []),
  ];
  const anyShaped = s.shown.some((g) => g.shaped);
  const columns = [
    'group',
    'rollouts',
    'failed',
    anyShaped ? 'rewards (shaped)' : 'rewards',
    'advantages',
    ...(hasClip ? ['clip bounds [low, high]'] : []),
    ...(s.filtered_groups > 0 ? ['filtered'] : []),
  ];
  const body = `<h1>Advantages: ${e(report.method)}${report.interrupted ? ' <span class="muted">(interrupted)</span>' : ''}</h1>
${htmlTable(
  [],
  [
    ['method', report.method],
    ['input', report.input],
    ['output', report.output],
    ['seed', report.seed],
    ...(report.stateKey !== undefined ? [['state key', report.stateKey] as TableCell[]] : []),
    ['groups', s.groups],
    ['shaped', s.ok],
    ['failed groups', s.failed],
    ['rollouts', s.rollouts],
    ['failed rollouts (advantage 0, left out below)', s.failed_rollouts],
    ['groups with no signal (all advantages 0)', { text: share(s.zero_signal_groups, s.ok), className: 'n' }],
    ...(s.filtered_groups > 0 ? [['filtered (BRPO skew)', s.filtered_groups] as TableCell[]] : []),
  ],
)}
<h3>Options</h3>
<pre>${e(JSON.stringify(report.options, null, 2) ?? '{}')}</pre>
<h2>Distributions</h2>
${htmlTable(
  ['over scored rollouts', 'count', 'mean', 'std', 'min', 'max'],
  [
    statsRow('advantage', s.advantages),
    ...(s.rewards.count > 0 ? [statsRow('reward', s.rewards)] : []),
    ...(hasClip ? [statsRow('clip bound low', s.clip_low), statsRow('clip bound high', s.clip_high)] : []),
  ],
)}
<div class="figs">
${figures.join('\n')}
</div>
<h2>Groups</h2>
${s.ok > s.shown.length ? `<p class="muted">The first ${s.shown.length} of ${s.ok} groups shaped; the output has every one.</p>` : ''}
${htmlTable(
  columns,
  s.shown.map((g) => [
    g.group,
    g.advantages.length,
    g.failed.length > 0 ? g.failed.join(' ') : '',
    g.rewards ? { text: list(g.rewards), className: 'text' } : null,
    { text: list(g.advantages), className: 'text' },
    ...(hasClip
      ? [
          g.clip_bounds
            ? {
                text: g.clip_bounds.map((b) => `[${formatNumber(b.low)}, ${formatNumber(b.high)}]`).join(' '),
                className: 'text',
              }
            : null,
        ]
      : []),
    ...(s.filtered_groups > 0 ? [g.filtered ? 'yes' : ''] : []),
  ]),
)}
<h2>Failures (${s.failed})</h2>
${s.failed > s.failures.length ? `<p class="muted">The first ${s.failures.length} of ${s.failed}; the output has every one.</p>` : ''}
${htmlTable(
  ['group', 'line', 'errors'],
  s.failures.map((f) => [f.group, f.line, { text: f.errors.join('\n'), className: 'text' }]),
)}`;
  return htmlPage({ title: `rewardkit advantages: ${report.method}`, body });
}
