import type { RunVersion } from './run-version.js';

/** How many aggregates a store keeps in memory (each a few hundred bytes). */
const MEMO_ENTRIES = 128;

/**
 * How many lists of ids (a comparison's changed samples: 216,000 ids, some 10 MB, at 1M results)
 * a store keeps in memory, in a memo of their own.
 */
export const LISTS_KEPT = 4;

/**
 * Aggregates of a run (or of several runs, such as a comparison) kept in memory under the runs'
 * versions: asked again while none has changed (a finished run, one whose writer died), an answer
 * costs each version's two index reads; a run being written to is aggregated afresh each time, as
 * before. `entries` bounds how many are kept: fewer for a memo of large values (lists of ids).
 */
export function createRunMemo(version: (runId: string) => Promise<RunVersion>, entries = MEMO_ENTRIES) {
  const kept = new Map<string, { version: string; value: unknown }>();
  return {
    async get<T>(
      runIds: string | readonly string[],
      what: string,
      compute: (version: RunVersion) => Promise<T>,
    ): Promise<T> {
      const ids = typeof runIds === 'string' ? [runIds] : runIds;
      const current = (await Promise.all(ids.map(version))).join('\u0000');
      const key = `${what}\u0000${ids.join('\u0000')}`;
      const hit = kept.get(key);
      if (hit && hit.version === current) {
        // Least recently used last: move it to the end.
        kept.delete(key);
        kept.set(key, hit);
        return hit.value as T;
      }
      const value = await compute(current);
      kept.delete(key);
      kept.set(key, { version: current, value });
      if (kept.size > entries) kept.delete(kept.keys().next().value as string);
      return value;
    },
  };
}

export type RunMemo = ReturnType<typeof createRunMemo>;
