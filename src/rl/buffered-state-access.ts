import type { StateAccess } from './state-access.js';

/** A `StateAccess` that keeps documents in memory and writes them through only on `flush`. */
export interface BufferedStateAccess extends StateAccess {
  /** Writes every document changed since the last flush to the underlying state. */
  flush(): Promise<void>;
}

/**
 * For one process that owns a run's state for a while (a CLI batch): a CLIPO head is a megabyte
 * of JSON at d = 256, D = 64, and reading and writing it through the store for every group cost
 * more than the shaping itself. Documents are read once, kept as objects (the group methods never
 * mutate a document they read) and written back on `flush`. Not for state shared between
 * processes, which would each keep their own copy.
 */
export function bufferedStateAccess(state: StateAccess): BufferedStateAccess {
  const documents = new Map<string, unknown>();
  const dirty = new Set<string>();
  return {
    async getState(key) {
      if (!documents.has(key)) documents.set(key, await state.getState(key));
      return documents.get(key);
    },
    async putState(key, value) {
      documents.set(key, value);
      dirty.add(key);
    },
    async flush() {
      for (const key of [...dirty]) {
        await state.putState(key, documents.get(key));
        dirty.delete(key);
      }
    },
  };
}
