import { TableHead } from '../table-head';
import { GradeBadge } from './grade-badge';
import type { OpenrsConstraintResult, OpenrsFindings } from './openrs-detail';
import type { PairSides } from './pair-sides';

const constraintText = (c: unknown): string => {
  if (typeof c === 'string') return c;
  if (typeof c === 'object' && c !== null && 'instruction_id' in c) {
    const { instruction_id, kwargs } = c as { instruction_id: unknown; kwargs?: unknown };
    const args = typeof kwargs === 'object' && kwargs !== null && Object.keys(kwargs).length > 0;
    return args ? `${String(instruction_id)} ${JSON.stringify(kwargs)}` : String(instruction_id);
  }
  return JSON.stringify(c) ?? '';
};

function Passed({ outcome }: { outcome: OpenrsConstraintResult['first'] }) {
  const [tone, label] =
    outcome.passed === null
      ? (['neutral', 'unchecked'] as const)
      : outcome.passed
        ? (['good', 'passed'] as const)
        : (['bad', 'failed'] as const);
  return (
    <>
      <GradeBadge tone={tone} value={label} /> {outcome.reason}
    </>
  );
}

/** OpenRS's verifiable pre-checks: the ground truth and each instruction constraint, on both responses. */
export function OpenrsPrechecks({ d, sides }: { d: OpenrsFindings; sides: PairSides }) {
  if (!d.groundTruth && !d.constraints?.length) return null;
  return (
    <>
      <h4>Pre-checks</h4>
      <table className="grid prechecks">
        <TableHead columns={['check', 'method', sides.first, sides.second]} />
        <tbody>
          {d.groundTruth && (
            <tr>
              <td>ground truth</td>
              <td>{[...new Set([d.groundTruth.first.method, d.groundTruth.second.method])].join(' / ')}</td>
              {[d.groundTruth.first, d.groundTruth.second].map((g, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the two sides of a pair
                <td key={i}>
                  <b>{g.score === null ? 'unchecked' : g.score > 0 ? `+${g.score}` : String(g.score)}</b>
                  {d.groundTruth && d.groundTruth.first.method !== d.groundTruth.second.method && (
                    <span className="muted"> ({g.method})</span>
                  )}{' '}
                  {g.reason}
                </td>
              ))}
            </tr>
          )}
          {d.constraints?.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: stored constraints never reorder
            <tr key={i}>
              <td>{constraintText(c.constraint)}</td>
              <td>{c.method}</td>
              <td>
                <Passed outcome={c.first} />
              </td>
              <td>
                <Passed outcome={c.second} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
