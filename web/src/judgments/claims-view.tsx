import { num } from '../format';
import { TableHead } from '../table-head';
import { ClaimVoteMark } from './claim-vote-mark';
import { type CheckedClaim, type ClaimsDetail, isClaimsDetail } from './claims-detail';
import { FigureList } from './figure-list';
import { GradeBadge } from './grade-badge';
import { NoteList } from './note-list';

function ClaimRow({ c }: { c: CheckedClaim }) {
  return (
    <tr data-claim={c.id}>
      <td>{c.id}</td>
      <td>{c.question}</td>
      <td>{c.expected}</td>
      <td>
        {c.verdict === undefined ? (
          <span className="muted">unchecked</span>
        ) : (
          <GradeBadge tone={c.verdict === 'supported' ? 'good' : 'bad'} value={c.verdict} />
        )}
        {c.tie && <span className="muted"> (tie)</span>}
      </td>
      <td className="n">{num(c.sum)}</td>
      <td>{c.label}</td>
      <td className="votes">
        {c.votes?.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the votes of a stored claim never reorder
          <ClaimVoteMark key={i} vote={v} index={i} />
        ))}
      </td>
    </tr>
  );
}

/** The Checker runs' problems (ids skipped, unknown or repeated), one line per run that had any. */
function runProblems(runs: ClaimsDetail['runs']): string[] {
  return (runs ?? []).flatMap((r) => {
    const found = [
      r.missing?.length && `skipped ${r.missing.join(', ')}`,
      r.unknown?.length && `unknown ${r.unknown.join(', ')}`,
      r.duplicates?.length && `repeated ${r.duplicates.join(', ')}`,
    ].filter(Boolean);
    return found.length > 0 ? [`checker run ${r.run}: ${found.join('; ')}`] : [];
  });
}

function ClaimsView({ d }: { d: ClaimsDetail }) {
  const faults = d.claims.filter((c) => c.verdict === 'fault').length;
  const supported = d.claims.filter((c) => c.verdict === 'supported').length;
  // The aggregate's own figures, less the counts shown already.
  const figures = Object.entries(d.figures ?? {}).filter(
    (e): e is [string, number | string] =>
      !['faults', 'supported', 'total'].includes(e[0]) &&
      (typeof e[1] === 'number' || typeof e[1] === 'string'),
  );
  return (
    <div className="judgment" data-judgment="claims">
      <FigureList
        items={[
          ['reward', d.score],
          ['verdict', d.status === 'invalid' ? `invalid (${d.stage ?? 'unknown stage'})` : d.verdict],
          ['aggregate', d.aggregate],
          ['claims', d.claims.length],
          ['faults', faults],
          ['supported', supported],
          ['checker runs', d.runs?.length],
          ...figures,
        ]}
      />
      {d.thinkDropped && (
        <p className="muted">The answer's {'<think>'} block was dropped before the check.</p>
      )}
      <NoteList items={d.flags?.map((f) => `flag: ${f}`)} />
      <NoteList items={d.warnings} />
      <NoteList items={runProblems(d.runs)} />
      {d.claims.length === 0 ? (
        <p className="muted">No claims.</p>
      ) : (
        <table className="grid claims">
          <TableHead columns={['id', 'question', 'expected', 'verdict', 'sum', 'label', 'votes']} />
          <tbody>
            {d.claims.map((c) => (
              <ClaimRow key={c.id} c={c} />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A MARCH claim check: reward, verdict, aggregate, counts, and every claim with its checker votes. */
export const claimsView = (detail: unknown) =>
  isClaimsDetail(detail) ? <ClaimsView d={detail} /> : undefined;
