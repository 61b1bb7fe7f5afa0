import type { StateAccess } from './state-access.js';

const tails = new WeakMap<StateAccess, Map<string, Promise<unknown>>>();

/**
 * Runs `update` alone for this (state, key): a method's read-modify-write of its state document
 * must not interleave with another group's in the same process (two concurrent CLIPO groups would
 * otherwise both start from the same head and one AdamW step would be lost). Replicas sharing one
 * store are not covered: route a run's groups to one process.
 */
export async function withStateLock<T>(
  state: StateAccess,
  key: string,
  update: () => Promise<T>,
): Promise<T> {
  let byKey = tails.get(state);
  if (!byKey) {
    byKey = new Map();
    tails.set(state, byKey);
  }
  const previous = byKey.get(key) ?? Promise.resolve();
  const run = previous.then(update, update);
  const tail = run.catch(() => undefined);
  byKey.set(key, tail);
  try {
    return await run;
  } finally {
    if (byKey.get(key) === tail) byKey.delete(key);
  }
}
