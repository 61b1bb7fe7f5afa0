import { useEffect, useState } from 'react';

/** The page's route is its hash (`#/runs/<id>`): the app is one file, served under any prefix. */
export function useHashRoute(): string[] {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const changed = () => setHash(window.location.hash);
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
