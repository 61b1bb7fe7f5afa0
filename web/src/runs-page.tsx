import { useState } from 'react';
import type { RunOverview } from './api';
import { duration, num, tokens } from './format';
import { StatusLine } from './status-line';
import { TableHead } from './table-head';
import { useApi } from './use-api';
import { href } from './use-hash-route';
import { useKey } from './use-key';

/** A run matches the search when its id, spec, kind or input holds the text, in any case. */
const matches = (run: RunOverview, text: string) =>
  [run.id, run.spec_name, run.kind, run.input ?? ''].some((field) => field.toLowerCase().includes(text));

/** Kinds whose runs hold a result per row, opened on their run page; the others open their report. */
const ROW_KINDS = new Set(['score', 'bench', 'judge']);

/** When a run was created, to the second, in UTC (the store's time, whatever the viewer's zone). */
const created = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/**
 * Every run, newest first, refreshed every 2 s so running ones move; a search narrows them (by id,
 * spec, kind or input); pick two to compare.
 */
export function RunsPage() {
  const loaded = useApi<{ runs: RunOverview[] }>('runs?limit=200', 2000);
  const [picked, setPicked] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  useKey('/', () => document.getElementById('runs-search')?.focus());
  const text = search.trim().toLowerCase();
  const shown = loaded.state === 'ok' ? loaded.data.runs.filter((run) => matches(run, text)) : [];
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
          aria-disabled={picked.length !== 2}
        >
          Compare the two picked runs
        </a>{' '}
        <span className="muted">pick two with the boxes</span>
      </p>
      <label className="filters">
        search{' '}
        <input
          id="runs-search"
          type="search"
          placeholder="id, spec, kind, input"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </label>
      <StatusLine loaded={loaded} />
      {loaded.state === 'ok' && loaded.data.runs.length === 0 && <p>No runs in this store yet.</p>}
      {loaded.state === 'ok' && loaded.data.runs.length > 0 && shown.length === 0 && (
        <p id="runs-none-match">No run matches "{search}".</p>
      )}
      {shown.length > 0 && (
        <table className="grid" id="runs">
          <TableHead
            columns={[
              '',
              'run',
              'created (UTC)',
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
            {shown.map((run) => (
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
                  <a href={ROW_KINDS.has(run.kind) ? href('runs', run.id) : `api/runs/${run.id}/report`}>
                    {run.id}
                  </a>
                </td>
                <td className="n">{created(run.created_at)}</td>
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
