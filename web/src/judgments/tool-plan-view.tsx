import { num } from '../format';
import { TableHead } from '../table-head';
import { FigureList } from './figure-list';
import { GradeBadge, type Tone } from './grade-badge';
import { NoteList } from './note-list';
import {
  isToolPlanDetail,
  type JudgedCall,
  type ToolPlanDetail,
  type ToolPlanFinding,
  type ToolPlanMiss,
} from './tool-plan-detail';

/** necessity and appropriateness grades, best first (src/judges/tool-plan: `aggregate-tool-plan.ts`). */
const TONES: Record<string, Tone> = {
  necessary: 'good',
  helpful: 'partial',
  unnecessary: 'bad',
  appropriate: 'good',
  partly_appropriate: 'partial',
  inappropriate: 'bad',
  critical: 'bad',
  minor: 'partial',
};
const badge = (value: string) => <GradeBadge tone={TONES[value] ?? 'neutral'} value={value} />;
const at = (x: { line?: number | undefined; column?: number | undefined }) =>
  x.line === undefined ? '—' : `${x.line}:${x.column ?? '?'}`;

function PlannedCalls({ calls }: { calls: JudgedCall[] }) {
  if (calls.length === 0) return <p className="muted">The answer plans no tool call.</p>;
  return (
    <table className="grid planned-calls">
      <TableHead
        columns={['#', 'tool', 'argument', 'at', 'necessity', 'appropriateness', 'score', 'reason']}
      />
      <tbody>
        {calls.map((c) => (
          <tr key={c.index} data-planned-call={c.index}>
            <td className="n">{c.index + 1}</td>
            <td>{c.tool}</td>
            <td className="quote">{c.argument}</td>
            <td className="n">{at(c)}</td>
            {c.judgment ? (
              <>
                <td>{badge(c.judgment.necessity)}</td>
                <td>{badge(c.judgment.appropriateness)}</td>
                <td className="n">{num(c.judgment.score)}</td>
                <td>{c.judgment.reason}</td>
              </>
            ) : (
              <td colSpan={4} className="errors">
                no readable judgment
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Findings({ findings }: { findings: ToolPlanFinding[] }) {
  return (
    <table className="grid findings">
      <TableHead columns={['at', 'kind', 'placeholder', 'finding']} />
      <tbody>
        {findings.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: stored findings never reorder
          <tr key={i}>
            <td className="n">{at(f)}</td>
            <td>{f.kind.replaceAll('_', ' ')}</td>
            <td className="quote">{f.text}</td>
            <td>{f.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Missed({ missed }: { missed: ToolPlanMiss[] | null | undefined }) {
  if (missed === null || missed === undefined)
    return <p className="muted">Missed opportunities: not judged.</p>;
  if (missed.length === 0) return <p className="muted">No missed opportunity.</p>;
  return (
    <table className="grid missed">
      <TableHead columns={['importance', 'tool', 'need', 'after']} />
      <tbody>
        {missed.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: stored misses never reorder
          <tr key={i}>
            <td>{badge(m.importance)}</td>
            <td>{m.tool}</td>
            <td>{m.need}</td>
            <td className="quote">
              {m.after === '' ? <span className="muted">(the start)</span> : `“${m.after}”`}
              {m.position === null && <span className="muted"> (not found in the answer)</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ToolPlanView({ d }: { d: ToolPlanDetail }) {
  const c = d.components;
  return (
    <div className="judgment" data-judgment="tool_plan">
      <FigureList
        items={[
          ['score', d.score],
          ['precision', c?.precision],
          ['recall', c?.recall],
          ['overall', c?.overall],
          ['f1', c?.f1],
        ]}
      />
      <NoteList
        items={d.invalid?.map(
          (x) => `${x.role}${x.call !== undefined ? ` call #${x.call + 1}` : ''}: ${x.reason}`,
        )}
        className="errors"
      />
      <NoteList items={d.warnings} />
      <h4>Planned calls</h4>
      <PlannedCalls calls={d.calls_planned} />
      {d.findings && d.findings.length > 0 && (
        <>
          <h4>Findings</h4>
          <Findings findings={d.findings} />
        </>
      )}
      <h4>Missed opportunities</h4>
      <Missed missed={d.missed} />
      <h4>Overall</h4>
      {d.overall ? (
        <dl className="tree">
          <div>
            <dt>rating</dt>
            <dd>{d.overall.score} / 10</dd>
          </div>
          <div>
            <dt>strengths</dt>
            <dd>{d.overall.strengths}</dd>
          </div>
          <div>
            <dt>weaknesses</dt>
            <dd>{d.overall.weaknesses}</dd>
          </div>
        </dl>
      ) : (
        <p className="muted">Not judged.</p>
      )}
    </div>
  );
}

/** An ATP-Bench tool-plan judgment: components, each planned call judged, findings, misses, the overall rating. */
export const toolPlanView = (detail: unknown) =>
  isToolPlanDetail(detail) ? <ToolPlanView d={detail} /> : undefined;
