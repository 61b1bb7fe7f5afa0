import type { AuditReport } from '../../audit/index.js';

const signed = (x: number) => (x >= 0 ? `+${x.toFixed(3)}` : x.toFixed(3));
const interval = (ci: readonly [number, number] | null) => (ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : '');

/**
 * The audit on stderr: one line per attribute (Spearman's ρ and its interval; ASSOCIATED when the
 * interval excludes 0), one per probe, and the failed count.
 */
export function formatAuditSummary(report: AuditReport): string {
  const lines = [
    `rewardkit audit: ${report.spec}: ${report.scored} of ${report.samples} scored, ${report.failed.length} failed`,
  ];
  for (const a of report.attributes) {
    const rho = a.spearman;
    const associated = rho.ci !== null && (rho.ci[0] > 0 || rho.ci[1] < 0);
    lines.push(
      rho.value === null
        ? `  —          ${a.name}: ${rho.reason}`
        : `  ${associated ? 'ASSOCIATED' : 'ok        '} ${a.name}: spearman ${signed(rho.value)} ${interval(rho.ci)}, mi ${a.mi === null ? '—' : a.mi.toFixed(3)} (${a.mi_method})`,
    );
  }
  for (const p of report.probes) {
    const share = p.moved_share === null ? '—' : `${(100 * p.moved_share).toFixed(0)}%`;
    lines.push(
      `  probe ${p.name}: applied ${p.applied}, moved ${share}, mean shift ${p.mean_shift === null ? '—' : signed(p.mean_shift)} ${interval(p.ci)}, failed ${p.failed}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
