import { num } from '../format';
import { isOpenrsPair, isOpenrsRoundRobin, type OpenrsRoundRobin } from './openrs-detail';
import { OpenrsPairView } from './openrs-pair-view';

/** A rollout's OpenRS round robin: its record, then each match (its judgment where it is kept here). */
function RoundRobinView({ d }: { d: OpenrsRoundRobin }) {
  const r = d.record;
  return (
    <>
      <p>
        win rate <b>{num(r.winRate)}</b> · {r.wins} win(s), {r.losses} loss(es), {r.ties} tie(s),{' '}
        {r.inconsistent} inconsistent
      </p>
      {d.matches.map((m) => (
        <details key={m.opponent} className="match" data-opponent={m.opponent}>
          <summary>
            against {m.opponent}: <b>{m.result}</b>
            {m.judgment_kept_with !== undefined && (
              <span className="muted"> · judgment kept with {m.judgment_kept_with}</span>
            )}
          </summary>
          {m.reason && <p className="errors">{m.reason}</p>}
          {isOpenrsPair(m.judgment) ? (
            <OpenrsPairView pair={m.judgment} sides={{ first: 'this rollout', second: m.opponent }} />
          ) : null}
        </details>
      ))}
    </>
  );
}

/** An OpenRS judgment: against the reference, or a round robin in the group. */
export function openrsView(detail: unknown) {
  if (isOpenrsPair(detail)) {
    return (
      <div className="judgment" data-judgment="openrs">
        <OpenrsPairView pair={detail} sides={{ first: 'response', second: 'reference' }} />
      </div>
    );
  }
  if (isOpenrsRoundRobin(detail)) {
    return (
      <div className="judgment" data-judgment="openrs">
        <RoundRobinView d={detail} />
      </div>
    );
  }
  return undefined;
}
