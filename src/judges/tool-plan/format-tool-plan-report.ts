import type { ToolPlanGroupStats, ToolPlanReport } from './tool-plan-report.js';

const num = (v: number | null, digits = 3) => (v === null ? '—' : v.toFixed(digits));

function table(title: string, groups: Record<string, ToolPlanGroupStats>): string[] {
  const names = Object.keys(groups);
  const width = Math.max(title.length, ...names.map((n) => n.length)) + 2;
  const head = `${title.padEnd(width)}${['rows', 'judged', 'score', 'precision', 'recall', 'overall', 'calls/row', 'missed/row'].map((h) => h.padStart(11)).join('')}`;
  const rows = names.map((name) => {
    const g = groups[name] as ToolPlanGroupStats;
    const cells = [
      String(g.rows),
      String(g.judged),
      num(g.score),
      num(g.precision),
      num(g.recall),
      num(g.overall),
      num(g.calls_per_row, 2),
      num(g.missed_per_row, 2),
    ];
    return `${name.padEnd(width)}${cells.map((c) => c.padStart(11)).join('')}`;
  });
  return [head, ...rows];
}

/** The report `rewardkit judge tool_plan --bench-rows` prints on stderr: all rows, then per category and per intent. */
export function formatToolPlanReport(report: ToolPlanReport): string {
  const tools = Object.entries(report.tools)
    .map(([tool, n]) => `${tool} ${n}`)
    .join(', ');
  return `${[
    ...table('tool plans', { all: report.all }),
    '',
    ...table('category', report.by_category),
    '',
    ...table('intent', report.by_intent),
    '',
    `planned calls: ${tools}`,
  ].join('\n')}\n`;
}
