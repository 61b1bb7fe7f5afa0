import type { RunVersion } from './run-version.js';

/** How many aggregates a store keeps in memory (each a few hundred bytes). */
const MEMO_ENTRIES = 128;

/**
 * Aggregates of a run kept in memory under the run's version: asked again while the run has not
 * changed (a finished run, one whose writer died), an answer costs the version's two index reads;
 * a run being written to is aggregated afresh each time, as before.
 */
export function createRunMemo(version: (runId: string) => Promise<RunVersion>) {
  const entries = new Map<string, { version: RunVersion; value: unknown }>();
  return {
    async get<T>(runId: string, what: string, compute: (version: RunVersion) => Promise<T>): Promise<T> {
      const current = await version(runId);
      const key = `${what}\u0000${runId}`;
      const hit = entries.get(key);
      if (hit && hit.version === current) {
        // Least recently used last: move it to the end.
        entries.delete(key);
        entries.set(key, hit);
        return hit.value as T;
      }
      const value = await compute(current);
      entries.delete(key);
      entries.set(key, { version: current, value });
      if (entries.size > MEMO_ENTRIES) entries.delete(entries.keys().next().value as string);
      return value;
    },
  };
}

export type RunMemo = ReturnType<typeof createRunMemo>;
