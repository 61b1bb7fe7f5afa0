import { num } from '../format';
import { FigureList } from '../judgments/figure-list';
import { TableHead } from '../table-head';
import { type BenchReportSummary, isBenchSummary } from './bench-summary';

/**
 * A bench run's numbers, as `rewardkit bench` reports them: the benchmark's headline score and our
 * figures beside it, the per-group table (the headline's columns, then ours), and what the judge
 * itself did (position consistency, ties, invalid judgments, length bias, cost per judgment).
 */
export function BenchSummaryPanel({ summary }: { summary: unknown }) {
  if (!isBenchSummary(summary)) return null;
  const r = summary.report;
  return (
    <section id="bench-summary" className="bench-summary">
      <h2>Benchmark: {r.title}</h2>
      <FigureList
        items={[
          ['score', r.score],
          ...r.ours.map((f): [string, number | null] => [f.name, f.score]),
          ['judged', String(r.items.judged)],
          ['failed', String(r.items.failed)],
          ['no readable verdict', String(r.items.unanswered)],
          ...(r.judge !== undefined
            ? [['judge', `${r.judge}${r.model ? ` (${r.model})` : ''}`] as [string, string]]
            : []),
        ]}
      />
      <p className="muted">
        score: {r.metric}
        {r.upstream && ` (as computed by ${r.upstream})`}
      </p>
      {r.ours.length > 0 && (
        <ul className="muted">
          {r.ours.map((f) => (
            <li key={f.name}>
              {f.name}: {f.metric}
            </li>
          ))}
        </ul>
      )}
      <GroupTable table={r.table} />
      <h3>The judge</h3>
      <JudgeMetricsTable m={r.judge_metrics} />
    </section>
  );
}

/** One row per subset, section or domain; the columns after the headline's are marked as ours. */
function GroupTable({ table }: { table: BenchReportSummary['table'] }) {
  return (
    <table className="grid" id="bench-groups">
      <TableHead
        columns={[
          'group',
          'items',
          ...table.columns.map((c, i) => (i >= table.headline_columns ? `${c} (ours)` : c)),
        ]}
      />
      <tbody>
        {table.rows.map((row) => (
          <tr key={row.name}>
            <td>{row.name}</td>
            <td className="n">{row.items}</td>
            {row.values.map((v, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's values follow the fixed columns
              <td key={i} className="n">
                {num(v, 4)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function JudgeMetricsTable({ m }: { m: BenchReportSummary['judge_metrics'] }) {
  const rows: [string, string, string][] = [
    ['judgments', String(m.judgments), ''],
    [
      'position consistency',
      num(m.position_consistency, 4),
      `${m.position_consistency_pairs} pairs judged in both orders`,
    ],
    ['tie rate', num(m.tie_rate, 4), `inconsistent orders ${num(m.inconsistent_rate, 4)} of pairs`],
    ['invalid rate', num(m.invalid_rate, 4), ''],
    [
      'length: pearson',
      num(m.length.pearson, 4),
      `verdict vs length difference, ${m.length.pairs} decided pairs`,
    ],
    ['length: longer picked', num(m.length.longer_preferred_rate, 4), ''],
    ['calls / judgment', num(m.calls_per_judgment, 2), ''],
    [
      'tokens / judgment',
      `${num(m.prompt_tokens_per_judgment, 1)} / ${num(m.completion_tokens_per_judgment, 1)}`,
      'prompt / completion',
    ],
  ];
  return (
    <table className="grid" id="bench-judge-metrics">
      <tbody>
        {rows.map(([label, value, note]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td className="n">{value}</td>
            <td className="muted">{note}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
