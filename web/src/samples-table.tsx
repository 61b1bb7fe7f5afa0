import { useEffect, useRef, useState } from 'react';
import { getPage, type SampleRow } from './api';
import { num } from './format';
import { hrefWith, replaceHashQuery } from './use-hash-route';

const ROW_HEIGHT = 30;
const PAGE = 100;
const VIEW_HEIGHT = 560;

/**
 * A run's samples as a virtualized table over the paged API: only the rows in view are drawn, and
 * only the pages under them fetched, so a run of a million rows scrolls like one of a hundred.
 */
export function SamplesTable({
  runId,
  query,
  initialRow = 0,
  refresh,
  onFirstAnswer,
}: {
  runId: string;
  query: string;
  /** The row to open scrolled to (the hash's `row`: Back and reload return to the same rows). */
  initialRow?: number;
  /** When this changes (a live run's result count), the rows in view are asked for again, in place. */
  refresh?: unknown;
  /** Called once the first page has answered (or failed): the page's slower requests wait for it. */
  onFirstAnswer?: () => void;
}) {
  const [total, setTotal] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [scrollTop, setScrollTop] = useState(initialRow * ROW_HEIGHT);
  const [, setVersion] = useState(0);
  const pages = useRef(new Map<number, SampleRow[] | 'loading' | 'failed'>());
  // The pages before a refresh, drawn until their fresh copies answer (no flash of empty rows).
  const previous = useRef(new Map<number, SampleRow[] | 'loading' | 'failed'>());
  const box = useRef<HTMLDivElement>(null);

  // New filters: start over at the top, except on the first draw, which opens where the hash says.
  const opened = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runId and query are the reset keys
  useEffect(() => {
    pages.current = new Map();
    previous.current = new Map();
    setTotal(undefined);
    setError(undefined);
    const top = opened.current ? 0 : initialRow * ROW_HEIGHT;
    opened.current = true;
    setScrollTop(top);
    if (box.current) box.current.scrollTop = top;
    setVersion((v) => v + 1);
  }, [runId, query]);

  // The box cannot scroll past its rows until the first page says how many there are.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the first count matters; a scroll is not a reason
  useEffect(() => {
    if (total !== undefined && box.current && box.current.scrollTop !== scrollTop) {
      box.current.scrollTop = scrollTop;
    }
  }, [total]);

  // Where the table is scrolled to goes in the hash, in place (no history entry per scroll).
  const first = Math.floor(scrollTop / ROW_HEIGHT);
  useEffect(() => {
    const timer = setTimeout(() => {
      const params = new URLSearchParams(query);
      if (first > 0) params.set('row', String(first));
      replaceHashQuery(params);
    }, 200);
    return () => clearTimeout(timer);
  }, [first, query]);

  // More results: the same place, asked again.
  const lastRefresh = useRef(refresh);
  useEffect(() => {
    const before = lastRefresh.current;
    lastRefresh.current = refresh;
    // Only a change of a count already known: the first one, and the run finishing, ask nothing.
    if (refresh === before || before === undefined || refresh === undefined) return;
    previous.current = pages.current;
    pages.current = new Map();
    setError(undefined);
    setVersion((v) => v + 1);
  }, [refresh]);

  const visible = Math.ceil(VIEW_HEIGHT / ROW_HEIGHT) + 1;
  const firstPage = Math.floor(first / PAGE);
  const lastPage = Math.floor((first + visible) / PAGE);

  useEffect(() => {
    for (let page = firstPage; page <= lastPage; page++) {
      if (pages.current.has(page) || (total !== undefined && page * PAGE >= total && page > 0)) continue;
      const asked = pages.current;
      asked.set(page, 'loading');
      const sep = query === '' ? '' : '&';
      getPage<{ total: number; rows: SampleRow[] }>(
        `runs/${encodeURIComponent(runId)}/samples?${query}${sep}limit=${PAGE}&offset=${page * PAGE}`,
      ).then(
        (answer) => {
          onFirstAnswer?.();
          // A page of other filters (or from before a refresh) that answered late is dropped.
          if (pages.current !== asked) return;
          asked.set(page, answer.rows);
          setTotal(answer.total);
          setVersion((v) => v + 1);
        },
        (e: Error) => {
          onFirstAnswer?.();
          if (pages.current !== asked) return;
          // Not asked again until the next refresh or filters: a failing store is not hammered.
          asked.set(page, 'failed');
          setError(e.message);
        },
      );
    }
  });

  const rows: { index: number; row: SampleRow | undefined }[] = [];
  const end = Math.min(first + visible, total ?? visible);
  for (let index = first; index < end; index++) {
    const at = Math.floor(index / PAGE);
    const fresh = pages.current.get(at);
    const page = Array.isArray(fresh) ? fresh : previous.current.get(at);
    rows.push({ index, row: Array.isArray(page) ? page[index % PAGE] : undefined });
  }

  return (
    <div>
      <p className="muted" id="samples-count">
        {error ? (
          <span className="error" role="alert">
            {error}
          </span>
        ) : total === undefined ? (
          'Loading…'
        ) : (
          `${total.toLocaleString('en')} samples`
        )}
      </p>
      <div className="samples-scroll">
        <div className="table-head samples-row">
          <span>#</span>
          <span>sample</span>
          <span>status</span>
          <span className="n">reward</span>
          <span>components</span>
          <span>data source</span>
          <span className="n">time</span>
          <span>response</span>
        </div>
        <div
          ref={box}
          className="virtual"
          style={{ height: VIEW_HEIGHT }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          id="samples"
        >
          <div style={{ height: (total ?? 0) * ROW_HEIGHT, position: 'relative' }}>
            {rows.map(({ index, row }) => (
              <div
                key={index}
                className={`samples-row${row?.status === 'failed' ? ' failed' : ''}`}
                style={{
                  position: 'absolute',
                  top: index * ROW_HEIGHT,
                  height: ROW_HEIGHT,
                  left: 0,
                  right: 0,
                }}
                data-sample={row?.sample_id}
              >
                <span className="muted">{index + 1}</span>
                {row ? (
                  <>
                    <a className="clip" href={sampleHref(runId, row.sample_id, query, index)}>
                      {row.sample_id}
                    </a>
                    <span>{row.status}</span>
                    {row.status === 'failed' && row.first_error !== null ? (
                      // A failed row has no reward: its first reason takes the reward's and the
                      // components' place, whole on hover.
                      <span className="clip reason" title={row.first_error}>
                        {row.first_error}
                      </span>
                    ) : (
                      <>
                        <span className="n">{num(row.reward)}</span>
                        <span className="clip">
                          {Object.entries(row.components)
                            .map(([k, v]) => `${k}=${num(v, 2)}`)
                            .join(' ')}
                        </span>
                      </>
                    )}
                    <span className="clip">{row.data_source ?? ''}</span>
                    <span className="n">{msTime(row.total_ms)}</span>
                    <span
                      className="clip"
                      title={row.response_chars === null ? '' : `${row.response_chars} characters`}
                    >
                      {row.response_preview ?? <i className="muted">no text saved</i>}
                    </span>
                  </>
                ) : (
                  <span className="muted">…</span>
                )}
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * A sample's page, carrying the table's filters and the row's place in them: its previous and next
 * follow the same order, and its way back returns to the same rows.
 */
export function sampleHref(runId: string, sampleId: string, query: string, index: number): string {
  const params = new URLSearchParams(query);
  params.set('i', String(index));
  return hrefWith(['runs', runId, 'samples', sampleId], params);
}

const msTime = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
