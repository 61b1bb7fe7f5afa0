import { liftsReward, type RedteamReport, unscored } from '../redteam/index.js';
import { escapeHtml } from './escape-html.js';
import { htmlPage } from './html-page.js';
import { htmlTable } from './html-table.js';
import { intervalPlotSvg } from './interval-plot-svg.js';

/** Failures listed in the page; the JSON keeps every one. */
const MAX_FAILURES_SHOWN = 50;

const verdict = (s: RedteamReport['exploits'][number]) =>
  liftsReward(s) ? 'LIFTS' : unscored(s) ? 'UNSCORED' : 'ok';

/**
 * A redteam report as one self-contained HTML file (inline CSS and SVG, no script, no request): the
 * lift per exploit with its interval, the lifted share, the examples and the failed scorings. Every
 * response is escaped — these are adversarial texts by design.
 */
export function redteamReportHtml(report: RedteamReport): string {
  const e = escapeHtml;
  const lifting = report.exploits.filter(liftsReward);
  const plot = intervalPlotSvg({
    rows: report.exploits.map((s) => ({
      label: s.name,
      value: s.mean_lift,
      interval: s.ci,
      flagged: liftsReward(s),
    })),
    xLabel: 'mean lift of the reward (95% bootstrap interval)',
  });
  const table = htmlTable(
    ['exploit', 'verdict', 'applied', 'lifted share', 'mean lift', '95% interval', 'failed'],
    report.exploits.map((s) => [
      s.name,
      verdict(s),
      s.applied,
      s.lifted_share,
      s.mean_lift,
      s.ci ? `[${s.ci[0].toFixed(3)}, ${s.ci[1].toFixed(3)}]` : null,
      s.failed,
    ]),
  );
  const examples = report.exploits
    .filter((s) => s.examples.length > 0)
    .map(
      (s) =>
        `<h3>${e(s.name)}</h3>\n${htmlTable(
          ['sample', 'before', 'after', 'exploited response'],
          s.examples.map((x) => [x.id, x.before, x.after, { text: x.response, className: 'text' }]),
        )}`,
    );
  const failures = report.failures.slice(0, MAX_FAILURES_SHOWN);
  const cost = report.judge_cost
    ? `<p>Judge calls: ${report.judge_cost.original.calls} (${report.judge_cost.original.tokens} tokens) for the original pass, ${report.judge_cost.exploits.calls} (${report.judge_cost.exploits.tokens} tokens) for the exploits.</p>`
    : '';
  const body = `<h1>Redteam: ${e(report.spec)}</h1>
<p>${report.samples} samples, ${report.exploits.length} exploits, ${report.scorings} scorings (${report.cost_multiple.toFixed(2)}× one scoring pass). ${
    lifting.length > 0
      ? `<strong>${lifting.length} exploit(s) lift the reward:</strong> ${e(lifting.map((s) => s.name).join(', '))}.`
      : 'No exploit lifts the reward.'
  }</p>
${cost}
<h2>Lift per exploit</h2>
<figure><figcaption>Mean lift with its interval; red: the interval lies above 0</figcaption>${plot}</figure>
${table}
<h2>Examples</h2>
${examples.length > 0 ? examples.join('\n') : '<p class="muted">No exploit applied to any sample.</p>'}
<h2>Failed scorings (${report.failures.length})</h2>
${
  report.failures.length === 0
    ? '<p class="muted">None: every scoring returned a reward.</p>'
    : `${htmlTable(
        ['sample', 'exploit', 'reasons'],
        failures.map((f) => [f.id, f.exploit, { text: f.reasons.join('\n'), className: 'text' }]),
      )}${report.failures.length > failures.length ? `<p class="muted">The first ${failures.length}; redteam.json lists all.</p>` : ''}`
}`;
  return htmlPage({ title: `rewardkit redteam: ${report.spec}`, body });
}
