import { useEffect, useRef, useState } from 'react';
import { type Polling, startPolling } from '../../src/view/start-polling.js';
import { ApiCallError, getJson, whenPagesIdle } from './api';

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'error'; message: string; code?: string | undefined }
  | { state: 'ok'; data: T };

/** An answer and where its polling stands: a request in flight, and when the last one answered. */
export type Polled<T> = Loaded<T> & { readonly updating: boolean; readonly updatedAt: number | undefined };

/**
 * One API answer, fetched again when `path` changes and, with `pollMs`, asked again while it is
 * set: a running `score` or `serve` moves on the page without a reload. One request at a time, the
 * next `max(pollMs, k × the last one's duration)` after its answer (src/view/start-polling.ts), and
 * never while a page of the samples table is in flight; taking `pollMs` away (the run finished)
 * stops asking without asking again.
 */
export function useApi<T>(path: string | undefined, pollMs?: number): Polled<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [updating, setUpdating] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<number | undefined>();
  const polling = useRef<Polling | undefined>(undefined);
  const every = useRef(pollMs);
  every.current = pollMs;

  useEffect(() => {
    if (path === undefined) return;
    setLoaded((previous) => (previous.state === 'ok' ? previous : { state: 'loading' }));
    const started = startPolling({
      everyMs: every.current,
      before: whenPagesIdle,
      load: async (signal) => {
        setUpdating(true);
        try {
          const data = await getJson<T>(path, signal);
          // An answer to a request since given up (a new path, polling stopped) is stale.
          if (signal.aborted) return;
          setLoaded({ state: 'ok', data });
          setUpdatedAt(Date.now());
        } catch (error) {
          if (!signal.aborted)
            setLoaded({
              state: 'error',
              message: (error as Error).message,
              code: error instanceof ApiCallError ? error.code : undefined,
            });
        } finally {
          if (!signal.aborted) setUpdating(false);
        }
      },
    });
    polling.current = started;
    return () => {
      started.stop();
      polling.current = undefined;
      setUpdating(false);
    };
  }, [path]);

  useEffect(() => {
    polling.current?.setEvery(pollMs);
  }, [pollMs]);

  return { ...loaded, updating, updatedAt };
}
