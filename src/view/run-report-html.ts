import type { SampleRow, SourceStat } from '../store/index.js';
import type { CostSeriesBucket, RewardHistogram, RewardSeriesBucket } from '../store/run-views.js';
import { escapeHtml } from './escape-html.js';
import { formatNumber } from './format-number.js';
import { histogramFigure } from './histogram-svg.js';
import { htmlPage } from './html-page.js';
import { htmlTable } from './html-table.js';
import { lineChartSvg } from './line-chart-svg.js';
import type { RunOverview } from './run-overview.js';
import { costOverTimeChart, rewardOverResultsChart } from './run-series-charts.js';

export interface RunReportInput {
  readonly run: RunOverview;
  readonly sources: readonly SourceStat[];
  readonly histograms: readonly RewardHistogram[];
  /** The reward over the run's results in saved order (`Store.rewardSeries`). */
  readonly rewardSeries?: readonly RewardSeriesBucket[];
  /** Judge usage over time (`Store.costSeries`); left out for a run that called no model. */
  readonly costSeries?: readonly CostSeriesBucket[];
  readonly failures: readonly { sample_id: string; reasons: string[] }[];
  /** The samples to list (e.g. the lowest rewards), previews only. */
  readonly samples: readonly SampleRow[];
}

/** The most samples the "lowest rewards" list holds. */
const LOWEST_MAX = 50;

/**
 * How many of a run's rewarded samples the "lowest rewards" list holds: the lowest tenth, at most
 * `LOWEST_MAX`, and always fewer than the run (a list of every row points at nothing).
 */
export function lowestRewardCount(rewarded: number): number {
  return rewarded < 2 ? 0 : Math.min(LOWEST_MAX, Math.ceil(rewarded / 10));
}

const figure = (caption: string, svg: string) =>
  `<figure><figcaption>${escapeHtml(caption)}</figcaption>${svg}</figure>`;

/**
 * One run as a self-contained HTML file (inline CSS and SVG, no script, no external request): the
 * summary, per-source table, histograms, reward over results, cost over time, failures and samples.
 * Every value from the store is escaped.
 */
export function runReportHtml(input: RunReportInput): string {
  const { run } = input;
  const cost = run.cost
    ? `${run.cost.calls} calls, ${run.cost.prompt_tokens} prompt / ${run.cost.completion_tokens} completion tokens, ${run.cost.cache_hits} cache hits`
    : 'no model calls';
  const series: string[] = [];
  if (input.rewardSeries?.some((b) => b.mean_reward !== null))
    series.push(figure('reward over results', lineChartSvg(rewardOverResultsChart(input.rewardSeries))));
  if (input.costSeries?.some((b) => b.calls > 0))
    series.push(
      figure('tokens over time', lineChartSvg(costOverTimeChart(input.costSeries, 'tokens'))),
      figure('calls over time', lineChartSvg(costOverTimeChart(input.costSeries, 'calls'))),
    );
  const body = `<h1>Run ${escapeHtml(run.id)}</h1>
${htmlTable(
  [],
  [
    ['spec', run.spec_name],
    ['status', run.status],
    ['input', run.input],
    ['results', run.results],
    ['failed', run.failed],
    ['mean reward', run.mean_reward],
    ['cost', cost],
    ['duration', { text: `${(run.duration_ms / 1000).toFixed(1)} s`, className: 'n' }],
    ['created', run.created_at],
  ],
)}
<h2>Sources</h2>
${htmlTable(
  ['source', 'scored', 'mean', 'invalid', 'calls', 'tokens in/out'],
  input.sources.map((s) => [
    s.source,
    s.count,
    s.mean,
    s.invalid,
    s.usage?.calls,
    s.usage ? { text: `${s.usage.prompt_tokens}/${s.usage.completion_tokens}`, className: 'n' } : null,
  ]),
)}
<h2>Reward histograms</h2>
<div class="figs">
${input.histograms.map((h) => histogramFigure(h.source ?? 'reward', h)).join('\n')}
</div>
${series.length > 0 ? `<h2>Over the run</h2>\n<div class="figs">\n${series.join('\n')}\n</div>` : ''}
<h2>Failures (${input.failures.length})</h2>
${htmlTable(
  ['sample', 'reasons'],
  input.failures.map((f) => [f.sample_id, { text: f.reasons.join('\n'), className: 'text' }]),
)}
<h2>Lowest rewards (${input.samples.length} of ${run.results - run.failed})</h2>
${htmlTable(
  ['sample', 'status', 'reward', 'components', 'response'],
  input.samples.map((s) => [
    s.sample_id,
    s.status,
    s.reward,
    Object.entries(s.components)
      .map(([k, v]) => `${k}=${formatNumber(v)}`)
      .join(' '),
    { text: s.response_preview ?? '', className: 'text' },
  ]),
)}`;
  return htmlPage({ title: `rewardkit run ${run.id}`, body });
}
