import { useEffect, useRef } from 'react';

/**
 * A one-key shortcut of the page (`j`, `k`, `/`), ignored while the user types in a field or holds
 * a modifier, so that it never steals a character or a browser shortcut.
 */
export function useKey(key: string, action: () => void): void {
  const latest = useRef(action);
  latest.current = action;
  useEffect(() => {
    const pressed = (e: KeyboardEvent) => {
      if (e.key !== key || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      e.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', pressed);
    return () => document.removeEventListener('keydown', pressed);
  }, [key]);
}
