import { DetailTree } from '../detail-tree';
import { isNumber, isRecord, isString, isUnknown, objectOf, optional } from '../judgments/shape-guards';
import { TableHead } from '../table-head';

/** A judge command's run summary (`judge pairwise`, a judge's `--bench-rows`): src/cli/commands/judge-*.ts. */
const isJudgeSummary = objectOf({
  kind: isString,
  command: isString,
  judge: isString,
  model: optional(isString),
  verdicts: optional(isRecord),
  report: isUnknown,
});

/**
 * A judge command's run: which judge ran, the verdicts counted over its rows (`judge pairwise`),
 * and the report its row format computes (a benchmark's own figures), as a tree.
 */
export function JudgeSummaryPanel({ summary }: { summary: unknown }) {
  if (!isJudgeSummary(summary)) return null;
  const verdicts = Object.entries(summary.verdicts ?? {}).filter((entry): entry is [string, number] =>
    isNumber(entry[1]),
  );
  const total = verdicts.reduce((sum, [, n]) => sum + n, 0);
  return (
    <section id="judge-summary">
      <h2>
        {summary.command} <span className="muted">judge {summary.judge}</span>
        {summary.model !== undefined && <span className="muted"> · model {summary.model}</span>}
      </h2>
      {verdicts.length > 0 && (
        <table className="grid" id="judge-verdicts">
          <TableHead columns={['verdict', 'rows', 'share']} />
          <tbody>
            {verdicts.map(([verdict, n]) => (
              <tr key={verdict}>
                <td>{verdict}</td>
                <td className="n">{n}</td>
                <td className="n">{`${Number(((n / total) * 100).toFixed(1))}%`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {summary.report !== undefined && (
        <details open>
          <summary>the row format's report</summary>
          <DetailTree value={summary.report} />
        </details>
      )}
    </section>
  );
}
