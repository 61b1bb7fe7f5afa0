import type { Loaded } from './use-api';

/** What a page shows while its data loads or when the API failed: never a blank screen. */
export function StatusLine({ loaded }: { loaded: Loaded<unknown> }) {
  if (loaded.state === 'loading') return <p className="muted">Loading…</p>;
  // A run that is not there is no failure to read the store: the API's sentence says it all.
  if (loaded.state === 'error' && loaded.code === 'run_not_found')
    return (
      <p className="error" role="alert">
        {loaded.message}.
      </p>
    );
  if (loaded.state === 'error')
    return (
      <p className="error" role="alert">
        Cannot read the store: {loaded.message}
      </p>
    );
  return null;
}
