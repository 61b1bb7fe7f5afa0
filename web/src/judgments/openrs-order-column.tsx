import { num } from '../format';
import { TableHead } from '../table-head';
import { GradeBadge } from './grade-badge';
import type { OpenrsCriterion, OpenrsOrder } from './openrs-detail';
import { type PairSides, sideOf } from './pair-sides';

function CriterionRow({
  c,
  order,
  sides,
}: {
  c: OpenrsCriterion;
  order: OpenrsOrder['order'];
  sides: PairSides;
}) {
  const winner = sideOf(order, c.winner, sides);
  const tone = c.winner === 'same' || c.strength === 0 ? 'neutral' : winner === sides.first ? 'good' : 'bad';
  return (
    <tr data-criterion-type={c.type}>
      <td>
        {c.name}
        <div className="muted">
          {c.type.replaceAll('_', ' ')}
          {c.dimension && `: ${c.dimension}`}
        </div>
      </td>
      <td>
        <GradeBadge tone={tone} value={winner} />
        <span className="muted"> ×{c.strength}</span>
      </td>
      <td>
        {c.reason}
        {c.evidence_a !== undefined && <div className="quote muted">A: {c.evidence_a}</div>}
        {c.evidence_b !== undefined && <div className="quote muted">B: {c.evidence_b}</div>}
      </td>
    </tr>
  );
}

/** One order of OpenRS's rubric comparison: its differences, its criteria (winners in the pair's terms), its aggregate. */
export function OpenrsOrderColumn({ o, sides }: { o: OpenrsOrder; sides: PairSides }) {
  const a = o.order === 'forward' ? sides.first : sides.second;
  const forFirst = o.aggregate && (o.order === 'forward' ? o.aggregate.score : -o.aggregate.score);
  return (
    <div data-openrs-order={o.order}>
      <h5>
        {o.order} <span className="muted">(A = {a})</span>
      </h5>
      {o.invalid !== undefined && <p className="errors">Unreadable: {o.invalid}</p>}
      {o.aggregate && forFirst !== undefined && (
        <p>
          score {num(forFirst)} for {sides.first}
          {o.aggregate.decidedByHardFlaw && ' · decided by a hard flaw'}
        </p>
      )}
      {o.output?.differences && o.output.differences.length > 0 && (
        <ul>
          {o.output.differences.map((x, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: stored differences never reorder
            <li key={i}>{x}</li>
          ))}
        </ul>
      )}
      {o.output && (
        <table className="grid criteria">
          <TableHead columns={['criterion', 'winner', 'reason and evidence']} />
          <tbody>
            {o.output.criteria.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: stored criteria never reorder
              <CriterionRow key={i} c={c} order={o.order} sides={sides} />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
