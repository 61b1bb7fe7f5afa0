import type { BenchReport } from '../bench/index.js';

const fixed = (n: number | null | undefined, digits = 4) =>
  n === null || n === undefined ? '—' : n.toFixed(digits);

/** A benchmark report as a human reads it: the metric table, then what the judge itself did. */
export function formatBenchReport(
  report: BenchReport,
  context: { output: string; reportFile?: string; runId?: string },
): string {
  const { table } = report;
  const width = Math.max(8, ...table.rows.map((r) => r.name.length));
  const colWidth = Math.max(9, ...table.columns.map((c) => c.length));
  const m = report.judge_metrics;
  // The headline's columns, then a bar, then ours.
  const cells = (values: readonly string[]) =>
    values
      .map((v, i) => `${i === table.headline_columns && i > 0 ? '│ ' : ''}${v.padStart(colWidth)}`)
      .join('  ');
  const labelWidth = Math.max(5, ...report.ours.map((f) => f.name.length));
  const lines = [
    '',
    `rewardkit bench: ${report.title} — ${report.items.judged} items judged, ${report.items.failed} failed${report.items.unanswered > 0 ? `; ${report.items.unanswered} of the judged got no readable verdict (scored by the benchmark's rule; see "invalid rate")` : ''}`,
    `  ${'score'.padEnd(labelWidth)}  ${fixed(report.score)}   ${report.metric}`,
    ...(report.upstream ? [`  ${''.padEnd(labelWidth)}           as computed by ${report.upstream}`] : []),
    ...report.ours.map((f) => `  ${f.name.padEnd(labelWidth)}  ${fixed(f.score)}   ours: ${f.metric}`),
    '',
    `  ${'group'.padEnd(width)}  ${'items'.padStart(6)}  ${cells(table.columns)}`,
    ...table.rows.map(
      (r) =>
        `  ${r.name.padEnd(width)}  ${String(r.items).padStart(6)}  ${cells(r.values.map((v) => fixed(v)))}`,
    ),
    ...(table.headline_columns < table.columns.length
      ? [
          `  columns after │ are ours; before it, ${report.upstream ? 'as the benchmark computes them' : 'as the score is computed'}`,
        ]
      : []),
    '',
    '  judge',
    `    judgments              ${m.judgments}`,
    `    position consistency   ${fixed(m.position_consistency)}   (${m.position_consistency_pairs} pairs judged in both orders)`,
    `    tie rate               ${fixed(m.tie_rate)}   (inconsistent orders ${fixed(m.inconsistent_rate)} of pairs)`,
    `    invalid rate           ${fixed(m.invalid_rate)}`,
    `    length: pearson        ${fixed(m.length.pearson)}   (verdict vs length difference, ${m.length.pairs} decided pairs)`,
    `    length: longer picked  ${fixed(m.length.longer_preferred_rate)}`,
    `    calls / judgment       ${fixed(m.calls_per_judgment, 2)}`,
    `    tokens / judgment      ${fixed(m.prompt_tokens_per_judgment, 1)} prompt, ${fixed(m.completion_tokens_per_judgment, 1)} completion`,
  ];
  if (report.failures.length > 0) {
    lines.push(
      '',
      `  first failures${report.items.failed > report.failures.length ? ` (${report.failures.length} of ${report.items.failed})` : ''}:`,
    );
    for (const f of report.failures) lines.push(`    ${f.id}: ${f.error}`);
  }
  lines.push('', `  output  ${context.output}`);
  if (context.reportFile) lines.push(`  report  ${context.reportFile}`);
  if (context.runId) lines.push(`  run     ${context.runId} (rewardkit runs show ${context.runId})`);
  lines.push('');
  return lines.join('\n');
}
