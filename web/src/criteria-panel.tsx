import type { CriterionStat } from './api';
import { StatusLine } from './status-line';
import { TableHead } from './table-head';
import { useApi } from './use-api';
import { href } from './use-hash-route';

const percent = (rate: number) => `${Number((rate * 100).toFixed(1))}%`;

/**
 * Per-criterion results of a judged run: each rubric criterion, medical grade and the claims of
 * a claims source, with its pass rate and links to the first samples that missed it. Asked only for
 * a run whose sources called a model (the answer reads every result's evidence); a run whose
 * judges grade no criteria shows nothing.
 */
export function CriteriaPanel({ runId }: { runId: string }) {
  const answer = useApi<{ criteria: CriterionStat[] }>(`runs/${encodeURIComponent(runId)}/criteria`);
  if (answer.state !== 'ok') return <StatusLine loaded={answer} />;
  const { criteria } = answer.data;
  if (criteria.length === 0) return null;
  return (
    <section id="criteria">
      <h2>By criterion</h2>
      <table className="grid">
        <TableHead
          columns={['source', 'criterion', 'graded', 'passed', 'pass rate', 'samples that missed it']}
        />
        <tbody>
          {criteria.map((c) => (
            <tr key={`${c.source}\u0000${c.criterion}`} data-criterion={c.criterion}>
              <td>{c.source}</td>
              <td>{c.criterion}</td>
              <td className="n">{c.graded}</td>
              <td className="n">{c.passed}</td>
              <td className="n">{percent(c.pass_rate)}</td>
              <td>
                {c.missed_sample_ids.map((id, i) => (
                  <span key={id}>
                    {i > 0 && ', '}
                    <a href={href('runs', runId, 'samples', id)}>{id}</a>
                  </span>
                ))}
                {c.missed_samples > c.missed_sample_ids.length &&
                  ` and ${c.missed_samples - c.missed_sample_ids.length} more`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
