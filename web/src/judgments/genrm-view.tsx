import type { ReactElement } from 'react';
import { num } from '../format';
import { type GenrmComparison, type GenrmDetail, isGenrmDetail } from './genrm-detail';
import { GradeBadge, type Tone } from './grade-badge';
import type { PairSides } from './pair-sides';

/** Against the reference, the pair is the judged response (first) and the sample's reference (second). */
const SIDES: PairSides = { first: 'the response', second: 'the reference' };

const VERDICT: Record<GenrmDetail['verdict'], { tone: Tone; label: string }> = {
  first: { tone: 'good', label: 'the response wins' },
  second: { tone: 'bad', label: 'the reference wins' },
  tie: { tone: 'partial', label: 'tie' },
  inconsistent: { tone: 'partial', label: 'the orders disagree' },
  invalid: { tone: 'bad', label: 'no readable verdict' },
};

/** The pair's side shown at position 1 and 2 of an order: forward shows the response first. */
const positions = (order: GenrmComparison['order']) =>
  order === 'forward' ? [SIDES.first, SIDES.second] : [SIDES.second, SIDES.first];

const winnerOf = (c: GenrmComparison) =>
  c.winner === undefined
    ? undefined
    : c.winner === 'tie'
      ? 'tie'
      : c.winner === 'first'
        ? SIDES.first
        : SIDES.second;

/** One ordered call: who sat where, the two scores by position, and who won in the sample's terms. */
function ComparisonRow({ c }: { c: GenrmComparison }) {
  const [one, two] = positions(c.order);
  const winner = winnerOf(c);
  return (
    <tr data-order={c.order} data-vote={c.vote}>
      <td>
        {c.order}
        {c.vote > 0 && <span className="muted"> · vote {c.vote + 1}</span>}
      </td>
      <td>{one}</td>
      <td className="n">{c.output ? num(c.output.score_1) : '—'}</td>
      <td>{two}</td>
      <td className="n">{c.output ? num(c.output.score_2) : '—'}</td>
      <td data-winner>
        {winner === undefined ? (
          <span className="muted">unreadable</span>
        ) : winner === 'tie' ? (
          'tie'
        ) : (
          <b>{winner}</b>
        )}
      </td>
    </tr>
  );
}

/**
 * A GenRM judgment against the reference: the verdict, then per order which response held
 * position 1 and 2, their scores and the winner named as the response or the reference. A
 * failed judge's message is given once, however many comparisons it failed.
 */
export function GenrmView({ d }: { d: GenrmDetail }) {
  const verdict = VERDICT[d.verdict];
  const failures = [...new Set(d.comparisons.flatMap((c) => (c.invalid === undefined ? [] : [c.invalid])))];
  const critiques = d.comparisons.filter((c) => c.output !== undefined);
  return (
    <div className="judgment genrm" data-judgment="genrm">
      <p>
        verdict <GradeBadge tone={verdict.tone} value={d.verdict} label={verdict.label} />
      </p>
      {failures.length > 0 && (
        <p className="errors" data-genrm-failure>
          The judge failed: {failures.join('; ')}
        </p>
      )}
      {d.comparisons.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th>order</th>
              <th>position 1</th>
              <th>score</th>
              <th>position 2</th>
              <th>score</th>
              <th>winner</th>
            </tr>
          </thead>
          <tbody>
            {d.comparisons.map((c) => (
              <ComparisonRow key={`${c.order}-${c.vote}`} c={c} />
            ))}
          </tbody>
        </table>
      )}
      {critiques.map((c) => (
        <details key={`${c.order}-${c.vote}`} className="match" data-critique={c.order}>
          <summary>
            {c.order} critique{c.vote > 0 ? ` (vote ${c.vote + 1})` : ''}
          </summary>
          <ul>
            {c.output?.principles.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a stored list never reorders, and may repeat
              <li key={i}>{p}</li>
            ))}
          </ul>
          <p>{c.output?.critique}</p>
        </details>
      ))}
    </div>
  );
}

export const genrmView = (detail: unknown): ReactElement | undefined =>
  isGenrmDetail(detail) ? <GenrmView d={detail} /> : undefined;
