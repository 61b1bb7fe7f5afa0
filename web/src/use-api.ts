import { useEffect, useState } from 'react';
import { getJson } from './api';

export type Loaded<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ok'; data: T };

/**
 * One API answer, fetched again when `path` changes and, with `pollMs`, every so often: a running
 * `score` or `serve` moves on the page without a reload.
 */
export function useApi<T>(path: string | undefined, pollMs?: number): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    if (path === undefined) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      getJson<T>(path, controller.signal).then(
        // An answer to a request this effect has since given up (a new path, polling stopped) is stale.
        (data) => {
          if (!controller.signal.aborted) setLoaded({ state: 'ok', data });
        },
        (error: Error) => {
          if (!controller.signal.aborted) setLoaded({ state: 'error', message: error.message });
        },
      );
      if (pollMs !== undefined) timer = setTimeout(load, pollMs);
    };
    setLoaded((previous) => (previous.state === 'ok' ? previous : { state: 'loading' }));
    load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [path, pollMs]);
  return loaded;
}
