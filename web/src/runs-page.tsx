import { useState } from 'react';
import type { RunOverview } from './api';
import { duration, num, tokens } from './format';
import { StatusLine } from './status-line';
import { TableHead } from './table-head';
import { useApi } from './use-api';
import { href } from './use-hash-route';

/** Every run, newest first, refreshed every 2 s so running ones move; pick two to compare. */
export function RunsPage() {
  const loaded = useApi<{ runs: RunOverview[] }>('runs?limit=200', 2000);
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) =>
    setPicked((now) => (now.includes(id) ? now.filter((p) => p !== id) : [...now, id].slice(-2)));
  return (
    <section>
      <h1>Runs</h1>
      <p>
        <a
          className={`button${picked.length === 2 ? '' : ' disabled'}`}
          href={picked.length === 2 ? href('compare', picked[0] as string, picked[1] as string) : undefined}
          id="compare-link"
        >
          Compare the two picked runs
        </a>{' '}
        <span className="muted">pick two with the boxes</span>
      </p>
      <StatusLine loaded={loaded} />
      {loaded.state === 'ok' && loaded.data.runs.length === 0 && <p>No runs in this store yet.</p>}
      {loaded.state === 'ok' && loaded.data.runs.length > 0 && (
        <table className="grid" id="runs">
          <TableHead
            columns={[
              '',
              'run',
              'spec',
              'kind',
              'status',
              'results',
              'failed',
              'mean reward',
              'cost (calls · tokens in/out · cache hits)',
              'duration',
              'input',
            ]}
          />
          <tbody>
            {loaded.data.runs.map((run) => (
              <tr key={run.id} data-run={run.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`pick ${run.id}`}
                    checked={picked.includes(run.id)}
                    onChange={() => toggle(run.id)}
                  />
                </td>
                <td>
                  {/* An analysis run has no samples: its page is the report its command stored. */}
                  <a href={run.kind === 'score' ? href('runs', run.id) : `api/runs/${run.id}/report`}>
                    {run.id}
                  </a>
                </td>
                <td>{run.spec_name}</td>
                <td title={run.headline}>{run.kind}</td>
                <td className={`status-${run.status}`}>{run.status}</td>
                <td className="n">{run.results}</td>
                <td className="n">{run.failed}</td>
                <td className="n">{num(run.mean_reward)}</td>
                <td>
                  {run.cost
                    ? `${run.cost.calls} · ${tokens(run.cost.prompt_tokens)}/${tokens(run.cost.completion_tokens)} · ${run.cost.cache_hits}`
                    : '—'}
                </td>
                <td className="n">{duration(run.duration_ms)}</td>
                <td className="clip">{run.input ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
