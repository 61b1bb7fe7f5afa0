import { type Comparison, enc } from './api';
import { num } from './format';
import { StatusLine } from './status-line';
import { TableHead } from './table-head';
import { useApi } from './use-api';
import { href } from './use-hash-route';

/** Two runs side by side: the samples whose reward changed, and the components that moved. */
export function ComparePage({ a, b }: { a: string; b: string }) {
  const loaded = useApi<Comparison>(`compare?a=${enc(a)}&b=${enc(b)}&limit=500`);
  if (loaded.state !== 'ok') return <StatusLine loaded={loaded} />;
  const c = loaded.data;
  return (
    <section>
      <h1>Compare runs</h1>
      <table className="grid">
        <TableHead columns={['', 'run', 'spec', 'results', 'failed', 'mean reward']} />
        <tbody>
          {[c.a, c.b].map((run, i) => (
            <tr key={run.id}>
              <td>{i === 0 ? 'A' : 'B'}</td>
              <td>
                <a href={href('runs', run.id)}>{run.id}</a>
              </td>
              <td>{run.spec_name}</td>
              <td className="n">{run.results}</td>
              <td className="n">{run.failed}</td>
              <td className="n">{num(run.mean_reward)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p id="compare-counts">
        {c.common} samples in both · <b>{c.changed} changed</b> · {c.only_a} only in A · {c.only_b} only in B
      </p>
      <table className="grid" id="changed">
        <TableHead columns={['sample', 'A', 'B', 'Δ', 'why: components that moved']} />
        <tbody>
          {c.rows.map((row) => {
            const sources = [
              ...new Set([...Object.keys(row.a.components), ...Object.keys(row.b.components)]),
            ];
            const moved = sources.filter((s) => row.a.components[s] !== row.b.components[s]);
            return (
              <tr key={row.sample_id}>
                <td>
                  <a href={href('runs', a, 'samples', row.sample_id)}>{row.sample_id}</a>
                </td>
                <td className="n">{row.a.status === 'failed' ? 'failed' : num(row.a.reward)}</td>
                <td className="n">{row.b.status === 'failed' ? 'failed' : num(row.b.reward)}</td>
                <td className="n">
                  {row.a.reward !== null && row.b.reward !== null ? num(row.b.reward - row.a.reward) : '—'}
                </td>
                <td>
                  {moved.length === 0
                    ? row.a.status !== row.b.status
                      ? `status ${row.a.status} → ${row.b.status}`
                      : '—'
                    : moved
                        .map(
                          (s) =>
                            `${s}: ${num(row.a.components[s] ?? null)} → ${num(row.b.components[s] ?? null)}`,
                        )
                        .join('; ')}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
