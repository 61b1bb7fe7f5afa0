import type { DataSourceBreakdown } from './api';
import { num } from './format';
import { StatusLine } from './status-line';
import { TableHead } from './table-head';
import { useApi } from './use-api';
import { hrefWith } from './use-hash-route';

const percent = (rate: number) => `${Number((rate * 100).toFixed(1))}%`;

/**
 * A run's results by data source: count, failures and mean reward of each, most results first.
 * Each named source links to the samples table filtered to it (the filter matches a substring, so a
 * name inside another's also lists the other's rows); results saved without one have no link.
 */
export function DataSourceTable({ runId }: { runId: string }) {
  const breakdown = useApi<DataSourceBreakdown>(`runs/${encodeURIComponent(runId)}/by-source`);
  if (breakdown.state !== 'ok') return <StatusLine loaded={breakdown} />;
  const { data_sources, truncated } = breakdown.data;
  // A run without data sources has one row of nulls: a table of it says nothing.
  if (data_sources.every((d) => d.data_source === null)) return null;
  return (
    <section id="data-sources">
      <h2>By data source</h2>
      <table className="grid">
        <TableHead columns={['data source', 'results', 'failed', 'failure rate', 'mean reward']} />
        <tbody>
          {data_sources.map((d) => (
            <tr key={d.data_source ?? ''}>
              <td>
                {d.data_source === null ? (
                  <span className="muted">(none)</span>
                ) : (
                  <a href={hrefWith(['runs', runId], new URLSearchParams({ data_source: d.data_source }))}>
                    {d.data_source}
                  </a>
                )}
              </td>
              <td className="n">{d.results}</td>
              <td className="n">{d.failed}</td>
              <td className="n">{percent(d.failure_rate)}</td>
              <td className="n">{num(d.mean_reward)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {truncated && (
        <p className="muted">Only the {data_sources.length} data sources with the most results.</p>
      )}
    </section>
  );
}
