import type { CalibrationMetrics, CalibrationSummary } from '../calibration/index.js';
import { escapeHtml } from './escape-html.js';
import { htmlPage } from './html-page.js';
import { htmlTable, type TableCell } from './html-table.js';
import { reliabilityDiagramSvg } from './reliability-diagram-svg.js';

export interface CalibrationReportInput {
  /** Where the scores came from: a scores file, or a spec and its input. */
  readonly scores: string;
  /** The component calibrated, or undefined for the reward. */
  readonly source?: string;
  readonly labels: string;
  readonly map: string;
  readonly summary: CalibrationSummary;
  /** Rows left out, named by file:line:field (the first ones), and how many there were in all. */
  readonly problems: readonly string[];
  readonly problemCount: number;
}

const metricsRow = (name: string, m: CalibrationMetrics | null): TableCell[] =>
  m === null ? [name, null, null, null, null] : [name, m.n, m.ece, m.mce, m.brier];

/**
 * A `rewardkit calibrate` run as one self-contained HTML file (inline CSS and SVG, no script, no
 * request): ECE, MCE and Brier before and after the fit, and reliability diagrams of the raw
 * scores, the cross-fitted and the in-sample calibrated values. Every value from the data is escaped.
 */
export function calibrationReportHtml(report: CalibrationReportInput): string {
  const e = escapeHtml;
  const s = report.summary;
  const metrics = htmlTable(
    ['scores', 'n', 'ECE', 'MCE', 'Brier'],
    [
      metricsRow('before (raw)', s.before),
      metricsRow(`after, cross-fitted (${s.folds} folds, seed ${s.seed})`, s.after.cross_fitted),
      metricsRow('after, in-sample (optimistic)', s.after.in_sample),
    ],
  );
  const figures = [
    ...(s.before ? [reliabilityDiagramSvg({ title: 'before: raw scores', bins: s.before.bins })] : []),
    reliabilityDiagramSvg({ title: `after: ${s.method}, cross-fitted`, bins: s.after.cross_fitted.bins }),
    reliabilityDiagramSvg({ title: `after: ${s.method}, in-sample`, bins: s.after.in_sample.bins }),
  ];
  const shownProblems = report.problems.map((p) => `<li>${e(p)}</li>`).join('');
  const body = `<h1>Calibration: ${e(s.method)}</h1>
${htmlTable(
  [],
  [
    ['scores', report.scores],
    ['score', report.source === undefined ? 'reward' : `component "${report.source}"`],
    ['labels', report.labels],
    ['map written to', report.map],
    ['labelled points', s.n],
    ['bins', `${s.bins} of equal width on [0, 1]`],
    ['rows left out', report.problemCount],
  ],
)}
<h2>Metrics</h2>
${metrics}
${s.before_reason ? `<p class="muted">No “before” figures: ${e(s.before_reason)}.</p>` : ''}
<p class="muted">Cross-fitted: each point is mapped by a fit on the other folds, an estimate of how the map does on new scores. In-sample: by the map fitted on every point, which an isotonic fit drives toward zero error by memorizing labels; read the cross-fitted row.</p>
<h2>Reliability diagrams</h2>
<p class="muted">A point per non-empty bin: the bin's mean predicted probability against the share of positive labels in it. The dashed diagonal is perfect calibration; the bars below count the points per bin.</p>
<div class="figs">${figures.join('')}</div>
${
  report.problemCount > 0
    ? `<h2>Rows left out (${report.problemCount})</h2><ul>${shownProblems}</ul>${report.problemCount > report.problems.length ? `<p class="muted">… and ${report.problemCount - report.problems.length} more.</p>` : ''}`
    : ''
}`;
  return htmlPage({ title: `rewardkit calibration: ${s.method}`, body });
}
