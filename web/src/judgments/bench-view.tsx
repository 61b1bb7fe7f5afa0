import type { ReactElement } from 'react';
import { num } from '../format';
import { type BenchDetail, isBenchDetail } from './bench-detail';
import { FigureList } from './figure-list';
import { GradeBadge, type Tone } from './grade-badge';

const TONE: Record<BenchDetail['outcome'], Tone> = {
  correct: 'good',
  tie: 'partial',
  wrong: 'bad',
  invalid: 'bad',
};

/**
 * A pair's two responses named by the label, not by where they were shown: the item put the
 * labelled better one first or second at random, so "first wins" alone says nothing.
 */
const sideName = (side: 'first' | 'second', better: BenchDetail['better']) =>
  better === undefined || better === 'none'
    ? `the ${side} response`
    : side === better
      ? 'the better response'
      : 'the worse response';

function PairwiseJudgment({ d }: { d: BenchDetail }) {
  const better = d.better;
  const verdict =
    d.verdict === 'first' || d.verdict === 'second'
      ? `${sideName(d.verdict, better)} wins`
      : (d.verdict ?? '—');
  return (
    <>
      <FigureList
        items={[
          ['verdict', verdict],
          ['better response shown', better === 'none' ? 'neither (an A=B label)' : (better ?? '—')],
          ...(d.lengths
            ? [['lengths (first / second)', `${d.lengths.first} / ${d.lengths.second}`] as [string, string]]
            : []),
        ]}
      />
      {d.comparisons && d.comparisons.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th>order</th>
              <th>position 1</th>
              <th>position 2</th>
              <th>winner</th>
            </tr>
          </thead>
          <tbody>
            {d.comparisons.map((c) => {
              const [one, two] =
                c.order === 'forward' ? (['first', 'second'] as const) : (['second', 'first'] as const);
              return (
                <tr key={`${c.order}-${c.vote}`} data-order={c.order}>
                  <td>
                    {c.order}
                    {c.vote > 0 && <span className="muted"> · vote {c.vote + 1}</span>}
                  </td>
                  <td>{sideName(one, better)}</td>
                  <td>{sideName(two, better)}</td>
                  <td data-winner>
                    {c.winner === undefined ? (
                      <span className="muted">unreadable{c.invalid ? `: ${c.invalid}` : ''}</span>
                    ) : c.winner === 'tie' ? (
                      'tie'
                    ) : (
                      <b>{sideName(c.winner, better)}</b>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}

/**
 * One judgment of a benchmark item (`rewardkit bench`): its outcome against the label, then a
 * pair's verdict and each order with the responses named as the better and the worse one, a
 * listwise pick beside the chosen answer, or the ratings; the calls follow in the card.
 */
export function BenchView({ d }: { d: BenchDetail }) {
  return (
    <div className="judgment bench" data-judgment="bench">
      <p>
        {d.key} · judge {d.judge} · <GradeBadge tone={TONE[d.outcome]} value={d.outcome} />
      </p>
      {d.reason && <p className="errors">{d.reason}</p>}
      {d.kind === 'pairwise' && <PairwiseJudgment d={d} />}
      {d.kind === 'listwise' && (
        <FigureList
          items={[
            ['picked', d.picked ?? '—'],
            ['chosen answer', d.chosen_label ?? '—'],
          ]}
        />
      )}
      {d.kind === 'ratings' && (
        <FigureList
          items={[
            ['ratings', (d.ratings ?? []).map((r) => num(r)).join(', ')],
            ['correct answers', `the first ${d.num_correct ?? 1}`],
          ]}
        />
      )}
    </div>
  );
}

export function benchView(detail: unknown): ReactElement | undefined {
  return isBenchDetail(detail) ? <BenchView d={detail} /> : undefined;
}
