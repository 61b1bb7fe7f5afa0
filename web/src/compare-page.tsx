import { type CompareFilter, type Comparison, enc } from './api';
import { num } from './format';
import { StatusLine } from './status-line';
import { TableHead } from './table-head';
import { useApi } from './use-api';
import { href, hrefWith, useHashQuery } from './use-hash-route';

const FILTERS: { filter: CompareFilter; label: string; count: (c: Comparison) => number }[] = [
  { filter: 'changed', label: 'all changed', count: (c) => c.changed },
  { filter: 'improved', label: 'improved', count: (c) => c.improved },
  { filter: 'regressed', label: 'regressed', count: (c) => c.regressed },
  { filter: 'status', label: 'changed verdict', count: (c) => c.status_changed },
];

/** Each row's cell of text: B's response start, or A's when B kept none. */
const excerptOf = (row: Comparison['rows'][number]) => row.b.excerpt ?? row.a.excerpt;

/** Two runs side by side: the samples whose reward changed, and the components that moved. */
export function ComparePage({ a, b }: { a: string; b: string }) {
  // The filter rides in the hash (`#/compare/a/b?filter=regressed`): a reload, Back and a shared
  // link land on the same rows; each choice is a history entry, so Back undoes it.
  const asked = useHashQuery().get('filter');
  const filter: CompareFilter = FILTERS.find((f) => f.filter === asked)?.filter ?? 'changed';
  const setFilter = (next: CompareFilter) => {
    window.location.hash = hrefWith(['compare', a, b], next === 'changed' ? '' : `filter=${next}`);
  };
  const loaded = useApi<Comparison>(`compare?a=${enc(a)}&b=${enc(b)}&limit=500&filter=${filter}`);
  if (loaded.state === 'error')
    return (
      <p className="error" role="alert">
        Cannot compare {a} with {b}: {loaded.message}
      </p>
    );
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
      {c.common === 0 ? (
        <p className="notice" id="compare-empty" role="status">
          These two runs share no sample ids, so there is nothing to compare side by side. Compare two runs of
          the same input file.
        </p>
      ) : (
        <>
          <fieldset className="compare-filters">
            <legend>Show</legend>
            {FILTERS.map((f) => (
              <button
                key={f.filter}
                type="button"
                aria-pressed={filter === f.filter}
                data-filter={f.filter}
                onClick={() => setFilter(f.filter)}
              >
                {f.label} ({f.count(c)})
              </button>
            ))}
          </fieldset>
          {c.rows.length === 0 ? (
            <p className="muted" id="compare-none">
              {c.changed === 0 ? 'No shared sample changed.' : 'No changed sample matches this filter.'}
            </p>
          ) : (
            <table className="grid" id="changed">
              <TableHead columns={['sample', 'response (B)', 'A', 'B', 'Δ', 'why: components that moved']} />
              <tbody>
                {c.rows.map((row) => {
                  const sources = [
                    ...new Set([...Object.keys(row.a.components), ...Object.keys(row.b.components)]),
                  ];
                  const moved = sources.filter((s) => row.a.components[s] !== row.b.components[s]);
                  const excerpt = excerptOf(row);
                  return (
                    <tr key={row.sample_id}>
                      <td>
                        <a href={href('compare', a, b, 'samples', row.sample_id)}>{row.sample_id}</a>
                      </td>
                      <td className="excerpt" title={excerpt ?? undefined}>
                        {excerpt ?? <span className="muted">no text kept</span>}
                      </td>
                      <td className="n">{row.a.status === 'failed' ? 'failed' : num(row.a.reward)}</td>
                      <td className="n">{row.b.status === 'failed' ? 'failed' : num(row.b.reward)}</td>
                      <td className="n">
                        {row.a.reward !== null && row.b.reward !== null
                          ? num(row.b.reward - row.a.reward)
                          : '—'}
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
          )}
        </>
      )}
    </section>
  );
}
