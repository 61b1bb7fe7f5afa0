import type { CorruptionCurve } from './corruption-curve.js';
import { EVPV_AGGREGATORS } from './evpv-aggregators.js';

const fixed = (x: number | null) => (x === null ? '' : x.toFixed(4));

/** The curve as CSV: one line per mode and ratio, plus an `ungated` reference line. */
export function corruptionCurveCsv(curve: CorruptionCurve): string {
  const header = ['mode', 'ratio', ...EVPV_AGGREGATORS, 'mean_p', 'invalid_audits'].join(',');
  const lines = curve.points.map((p) =>
    [
      p.mode,
      p.ratio,
      ...EVPV_AGGREGATORS.map((a) => fixed(p.accuracy[a])),
      fixed(p.mean_p),
      p.invalid_audits,
    ].join(','),
  );
  const ungated = ['ungated', '', ...EVPV_AGGREGATORS.map((a) => fixed(curve.ungated[a])), '', ''].join(',');
  return `${[header, ...lines, ungated].join('\n')}\n`;
}

/** The curve as a markdown table, for reports. */
export function corruptionCurveMarkdown(curve: CorruptionCurve): string {
  const head = `| mode | ratio | ${EVPV_AGGREGATORS.join(' | ')} | mean p |`;
  const rule = `|${' --- |'.repeat(EVPV_AGGREGATORS.length + 3)}`;
  const rows = curve.points.map(
    (p) =>
      `| ${p.mode} | ${p.ratio} | ${EVPV_AGGREGATORS.map((a) => fixed(p.accuracy[a])).join(' | ')} | ${fixed(p.mean_p)} |`,
  );
  const ungated = `| ungated | — | ${EVPV_AGGREGATORS.map((a) => fixed(curve.ungated[a])).join(' | ')} | |`;
  return [
    `BoN@${curve.k} accuracy over ${curve.problems} problem(s), ${curve.trials} trial(s), seed ${curve.seed}`,
    '',
    head,
    rule,
    ...rows,
    ungated,
    '',
  ].join('\n');
}
