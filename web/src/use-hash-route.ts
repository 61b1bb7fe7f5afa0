import { useEffect, useState } from 'react';

/**
 * The page's route is its hash (`#/runs/<id>?sort=reward`): the app is one file, served under any
 * prefix, and a view's filters, sort and place ride in the hash's query so that a reload, Back and a
 * copied link all land on the same rows.
 */
export function useHashRoute(): string[] {
  const hash = useHash();
  return pathOf(hash)
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
}

/** The hash's query (`sort=reward&q=x`), read afresh on every change of the hash. */
export function useHashQuery(): URLSearchParams {
  return new URLSearchParams(queryOf(useHash()));
}

function useHash(): string {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const changed = () => setHash(window.location.hash);
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

const pathOf = (hash: string) => (hash.includes('?') ? hash.slice(0, hash.indexOf('?')) : hash);
const queryOf = (hash: string) => (hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '');

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;

/** A route with a query; an empty query leaves no `?`. */
export function hrefWith(parts: readonly string[], query: URLSearchParams | string): string {
  const text = query.toString();
  return text === '' ? href(...parts) : `${href(...parts)}?${text}`;
}

/**
 * Replaces the current history entry's query (no new entry, no `hashchange`): where the table is
 * scrolled to is kept for Back and reload without a history entry per scroll.
 */
export function replaceHashQuery(query: URLSearchParams): void {
  const text = query.toString();
  const path = pathOf(window.location.hash);
  window.history.replaceState(window.history.state, '', text === '' ? path : `${path}?${text}`);
}
