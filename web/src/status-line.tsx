import type { Loaded } from './use-api';

/** What a page shows while its data loads or when the API failed: never a blank screen. */
export function StatusLine({ loaded }: { loaded: Loaded<unknown> }) {
  if (loaded.state === 'loading') return <p className="muted">Loading…</p>;
  if (loaded.state === 'error')
    return (
      <p className="error" role="alert">
        Cannot read the store: {loaded.message}
      </p>
    );
  return null;
}
