import { formatUsd } from '../core/format-usd.js';
import type { AgreementStatistic } from '../judges/index.js';
import { OTHER_SOURCES, type PanelSummary, type RunSummary } from '../runner/index.js';

const fixed = (n: number | null, digits = 4) => (n === null ? '—' : n.toFixed(digits));

/** The end-of-run summary as a human reads it. */
export function formatSummary(summary: RunSummary, context: { output: string; runId?: string }): string {
  const lines = [
    '',
    `rewardkit score: ${summary.rows} rows in ${(summary.elapsed_ms / 1000).toFixed(2)} s (${summary.rows_per_s.toFixed(0)} rows/s)`,
    `  scored   ${summary.scored}`,
    `  failed   ${summary.failed}${summary.failed > 0 ? '   (recorded in the output with their reasons; not scored 0)' : ''}`,
    `  skipped  ${summary.skipped}${summary.skipped > 0 ? '   (already in the output: resumed)' : ''}`,
    `  mean reward  ${fixed(summary.mean_reward)}`,
  ];
  if (summary.sources.length > 0) {
    const width = Math.max(6, ...summary.sources.map((s) => s.source.length));
    lines.push(
      '',
      `  ${'source'.padEnd(width)}  ${'rows'.padStart(6)}  ${'mean'.padStart(7)}  ${'pass'.padStart(7)}  ${'invalid'.padStart(7)}`,
    );
    for (const s of summary.sources) {
      lines.push(
        `  ${s.source.padEnd(width)}  ${String(s.scored).padStart(6)}  ${fixed(s.mean).padStart(7)}  ${fixed(s.pass_rate).padStart(7)}  ${String(s.invalid).padStart(7)}${s.llm ? `  ${s.llm.calls} LLM calls, ${s.llm.prompt_tokens}+${s.llm.completion_tokens} tokens, ${s.llm.cache_hits} cached${s.llm.cost_usd !== undefined ? `, ${formatUsd(s.llm.cost_usd)}` : ''}` : ''}`,
      );
    }
  }
  for (const panel of summary.panels ?? []) lines.push('', ...panelLines(panel));
  if (summary.routed_default !== undefined) {
    const total = summary.routed_default.reduce((n, c) => n + c.rows, 0);
    lines.push('', `  routed to default  ${total} rows matched no route of the spec:`);
    for (const c of summary.routed_default) {
      const name =
        c.data_source === null
          ? '(no data_source)'
          : c.data_source === OTHER_SOURCES
            ? '(further data_sources)'
            : c.data_source;
      lines.push(`    ${name}  ${c.rows}`);
    }
  }
  if (summary.failures.length > 0) {
    lines.push(
      '',
      `  first failures${summary.failed > summary.failures.length ? ` (${summary.failures.length} of ${summary.failed})` : ''}:`,
    );
    for (const f of summary.failures) lines.push(`    ${f.id}: ${f.reason}`);
  }
  lines.push(
    '',
    `  output  ${context.output}${context.runId ? `\n  run     ${context.runId} (rewardkit runs show ${context.runId})` : ''}`,
    '',
  );
  return lines.join('\n');
}

const statistic = (s: AgreementStatistic) =>
  s.value === null ? `—  (${s.reason})` : `${s.value.toFixed(3)}  (${s.units} samples)`;
const percent = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

/** A panel's agreement among its members and its cost per judgment. */
function panelLines(panel: PanelSummary): string[] {
  return [
    `  panel ${panel.source}: ${panel.members.length} members (${panel.members.join(', ')}), ${panel.judgments} judgments`,
    ...(panel.cohen_kappa ? [`    Cohen's kappa         ${statistic(panel.cohen_kappa)}`] : []),
    `    Fleiss' kappa         ${statistic(panel.fleiss_kappa)}`,
    `    Krippendorff alpha    ${statistic(panel.alpha_nominal)} nominal, verdicts`,
    `                          ${statistic(panel.alpha_interval)} interval, scores`,
    `    per judgment          ${fixed(panel.calls_per_judgment, 2)} calls, ${fixed(panel.tokens_per_judgment, 1)} tokens; escalated ${percent(panel.escalation_rate)}`,
  ];
}
