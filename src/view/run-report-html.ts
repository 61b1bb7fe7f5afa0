import type { RewardHistogram, SampleRow, SourceStat } from '../store/index.js';
import { escapeHtml } from './escape-html.js';
import { histogramSvg } from './histogram-svg.js';
import type { RunOverview } from './run-overview.js';

export interface RunReportInput {
  readonly run: RunOverview;
  readonly sources: readonly SourceStat[];
  readonly histograms: readonly RewardHistogram[];
  readonly failures: readonly { sample_id: string; reasons: string[] }[];
  /** The samples to list (e.g. the lowest rewards), previews only. */
  readonly samples: readonly SampleRow[];
}

const num = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : String(Number(value.toFixed(4)));

const STYLE = `body{font-family:system-ui,sans-serif;font-size:14px;color:#1d232a;margin:2rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #dde1e6;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#eef1f4}.n{text-align:right}.figs{display:flex;flex-wrap:wrap;gap:1rem}figure{margin:0;border:1px solid #dde1e6;padding:.4rem}
.axis{display:flex;justify-content:space-between;color:#6b7480;font-size:.8rem}td.text{white-space:pre-wrap;max-width:40rem}`;

/**
 * One run as a self-contained HTML file (inline CSS and SVG, no script, no external request): the
 * summary, per-source table, histograms, failures and samples. Every value from the store is escaped.
 */
export function runReportHtml(input: RunReportInput): string {
  const { run } = input;
  const e = escapeHtml;
  const rows = (cells: readonly string[][]) => cells.map((c) => `<tr>${c.join('')}</tr>`).join('\n');
  const td = (value: string, cls = '') => `<td${cls ? ` class="${cls}"` : ''}>${value}</td>`;
  const cost = run.cost
    ? `${run.cost.calls} calls, ${run.cost.prompt_tokens} prompt / ${run.cost.completion_tokens} completion tokens, ${run.cost.cache_hits} cache hits`
    : 'no model calls';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>rewardkit run ${e(run.id)}</title><style>${STYLE}</style></head><body>
<h1>Run ${e(run.id)}</h1>
<table>
${rows([
  [td('spec'), td(e(run.spec_name))],
  [td('status'), td(e(run.status))],
  [td('input'), td(e(run.input ?? '—'))],
  [td('results'), td(String(run.results), 'n')],
  [td('failed'), td(String(run.failed), 'n')],
  [td('mean reward'), td(num(run.mean_reward), 'n')],
  [td('cost'), td(e(cost))],
  [td('duration'), td(`${(run.duration_ms / 1000).toFixed(1)} s`, 'n')],
  [td('created'), td(e(run.created_at))],
])}
</table>
<h2>Sources</h2>
<table><tr><th>source</th><th>scored</th><th>mean</th><th>invalid</th><th>calls</th><th>tokens in/out</th></tr>
${rows(
  input.sources.map((s) => [
    td(e(s.source)),
    td(String(s.count), 'n'),
    td(num(s.mean), 'n'),
    td(String(s.invalid), 'n'),
    td(s.usage ? String(s.usage.calls) : '—', 'n'),
    td(s.usage ? `${s.usage.prompt_tokens}/${s.usage.completion_tokens}` : '—', 'n'),
  ]),
)}
</table>
<h2>Reward histograms</h2>
<div class="figs">
${input.histograms
  .map(
    (h) =>
      `<figure><figcaption>${e(h.source ?? 'reward')}</figcaption>${histogramSvg(h)}<div class="axis"><span>${num(h.min)}</span><span>${num(h.max)}</span></div></figure>`,
  )
  .join('\n')}
</div>
<h2>Failures (${input.failures.length})</h2>
<table><tr><th>sample</th><th>reasons</th></tr>
${rows(input.failures.map((f) => [td(e(f.sample_id)), td(e(f.reasons.join('\n')), 'text')]))}
</table>
<h2>Lowest rewards</h2>
<table><tr><th>sample</th><th>status</th><th>reward</th><th>components</th><th>response</th></tr>
${rows(
  input.samples.map((s) => [
    td(e(s.sample_id)),
    td(e(s.status)),
    td(num(s.reward), 'n'),
    td(
      e(
        Object.entries(s.components)
          .map(([k, v]) => `${k}=${num(v)}`)
          .join(' '),
      ),
    ),
    td(e(s.response_preview ?? ''), 'text'),
  ]),
)}
</table>
</body></html>
`;
}
