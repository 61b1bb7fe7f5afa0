import { FigureList } from './figure-list';
import { NoteList } from './note-list';
import type { OpenrsPair } from './openrs-detail';
import { OpenrsOrderColumn } from './openrs-order-column';
import { OpenrsPrechecks } from './openrs-prechecks';
import type { PairSides } from './pair-sides';

const verdictText = (verdict: string, sides: PairSides) =>
  ({
    first: `${sides.first} wins`,
    second: `${sides.second} wins`,
    tie: 'tie',
    inconsistent: 'inconsistent (the orders disagreed)',
    invalid: 'no readable verdict',
  })[verdict] ?? verdict;

/** OpenRS on one pair: verdict and route, pre-checks, the query's intent, both orders' criteria side by side. */
export function OpenrsPairView({ pair, sides }: { pair: OpenrsPair; sides: PairSides }) {
  const d = pair.detail;
  return (
    <>
      <FigureList
        items={[
          ['verdict', verdictText(pair.verdict, sides)],
          ['decided by', d.decidedBy.replaceAll('_', ' ')],
          ...(d.intent?.domains ? [['domains', d.intent.domains.join(', ')] as [string, string]] : []),
        ]}
      />
      {pair.reason && <p className="errors">{pair.reason}</p>}
      <NoteList items={d.warnings} />
      <OpenrsPrechecks d={d} sides={sides} />
      {d.intent && (
        <>
          <h4>Intent</h4>
          <dl className="tree">
            <div>
              <dt>query type</dt>
              <dd>{d.intent.query_type}</dd>
            </div>
            <div>
              <dt>primary need</dt>
              <dd>{d.intent.primary_need}</dd>
            </div>
            {d.intent.secondary_needs && d.intent.secondary_needs.length > 0 && (
              <div>
                <dt>secondary needs</dt>
                <dd>{d.intent.secondary_needs.join('; ')}</dd>
              </div>
            )}
            {d.intent.user_context && (
              <div>
                <dt>user context</dt>
                <dd>{d.intent.user_context}</dd>
              </div>
            )}
          </dl>
        </>
      )}
      {d.orders.length > 0 && (
        <>
          <h4>Criteria</h4>
          <div className={d.orders.length > 1 ? 'orders' : undefined}>
            {d.orders.map((o) => (
              <OpenrsOrderColumn key={o.order} o={o} sides={sides} />
            ))}
          </div>
        </>
      )}
    </>
  );
}
