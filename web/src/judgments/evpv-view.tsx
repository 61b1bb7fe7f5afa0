import { num } from '../format';
import { TableHead } from '../table-head';
import { type EvpvContradiction, type EvpvDetail, isEvpvDetail } from './evpv-detail';
import { FigureList } from './figure-list';
import { GradeBadge } from './grade-badge';
import { NoteList } from './note-list';

const AGGREGATORS = ['mean', 'weighted', 'streak', 'geometric', 'first_error'];

/**
 * The premise each visual step relies on. The checklist holds the distinct premises in first-use
 * order, so when there are as many as visual steps, the k-th is the k-th visual step's; otherwise
 * (a premise reused) the detail does not say which step used which, and none is named.
 */
function premisesOf(d: EvpvDetail): Map<number, string | undefined> {
  const exact = d.checklist.length === d.visual_steps.length;
  return new Map(d.visual_steps.map((step, k) => [step, exact ? d.checklist[k] : undefined]));
}

function Checklist({ d }: { d: EvpvDetail }) {
  const against = new Map<string, EvpvContradiction>((d.audit.contradictions ?? []).map((c) => [c.claim, c]));
  if (d.checklist.length === 0) return <p className="muted">No visual premises: p = 1.</p>;
  return (
    <table className="grid checklist">
      <TableHead columns={['visual premise', 'audit']} />
      <tbody>
        {d.checklist.map((premise) => {
          const c = against.get(premise);
          return (
            <tr key={premise}>
              <td>{premise}</td>
              <td>
                {c === undefined ? (
                  <span className="muted">
                    {d.audit.status === 'ok' ? 'not contradicted' : 'not audited'}
                  </span>
                ) : (
                  <>
                    <GradeBadge tone={c.severity === 'High' ? 'bad' : 'partial'} value={c.severity} />{' '}
                    contradicts “{c.constraint}”{c.explanation && `: ${c.explanation}`}
                  </>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Steps({ d }: { d: EvpvDetail }) {
  const premises = premisesOf(d);
  return (
    <table className="grid steps">
      <TableHead columns={['step', 'raw', 'visual premise', 'gated', 'judge']} />
      <tbody>
        {d.step_scores.map((raw, i) => {
          const judgment = d.step_judgments?.[i];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps are positions
            <tr key={i} data-step={i + 1}>
              <td className="n">{i + 1}</td>
              <td>
                <GradeBadge
                  tone={raw > 0 ? 'good' : 'bad'}
                  value={String(raw)}
                  label={raw > 0 ? '+1' : '−1'}
                />
              </td>
              <td>
                {premises.has(i) ? (
                  (premises.get(i) ?? <span className="muted">visual (premise not recorded)</span>)
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td className="n">{num(d.gated_scores[i])}</td>
              <td>
                {judgment?.reason}
                {judgment?.invalid && <span className="errors">{judgment.invalid}</span>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Constraints({ d }: { d: EvpvDetail }) {
  if (!d.constraints) return null;
  const c = d.constraints;
  return (
    <details>
      <summary>
        What the image shows{' '}
        <span className="muted">
          ({d.extraction?.source ?? 'unknown'}
          {d.extraction?.reused && ', reused'})
        </span>
      </summary>
      <p>{c.caption}</p>
      <NoteList items={c.key_facts} className="facts" />
      {c.uncertain && c.uncertain.length > 0 && (
        <>
          <p className="muted">Uncertain:</p>
          <NoteList items={c.uncertain} className="facts muted" />
        </>
      )}
    </details>
  );
}

function EvpvView({ d }: { d: EvpvDetail }) {
  const scores = Object.entries(d.scores).filter((e): e is [string, number] => typeof e[1] === 'number');
  scores.sort(([a], [b]) => AGGREGATORS.indexOf(a) - AGGREGATORS.indexOf(b));
  return (
    <div className="judgment" data-judgment="evpv">
      <FigureList
        items={[
          ['premise reliability p', d.audit.p],
          ['final answer', d.final_answer],
          ['correct', d.correct === undefined ? undefined : d.correct ? 'yes' : 'no'],
          ...scores,
        ]}
      />
      {d.audit.status === 'invalid' && (
        <p className="errors">The premise audit was never readable (p = 0): {d.audit.reason}</p>
      )}
      {d.steps_invalid && (
        <p className="errors">The step judgment was never readable: {d.steps_invalid.reason}</p>
      )}
      <h4>Checklist</h4>
      <Checklist d={d} />
      <h4>Steps</h4>
      <Steps d={d} />
      <Constraints d={d} />
    </div>
  );
}

/** An EVPV judgment: premise reliability and contradictions, the checklist, gated steps, the aggregates. */
export const evpvView = (detail: unknown) => (isEvpvDetail(detail) ? <EvpvView d={detail} /> : undefined);
