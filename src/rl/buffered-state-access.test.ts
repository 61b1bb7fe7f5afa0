import { describe, expect, test } from 'vitest';
import { bufferedStateAccess } from './buffered-state-access.js';
import type { StateAccess } from './state-access.js';

function countingState(): StateAccess & { docs: Map<string, unknown>; reads: number; writes: number } {
  const docs = new Map<string, unknown>([['a', { n: 1 }]]);
  const state = {
    docs,
    reads: 0,
    writes: 0,
    getState: async (key: string) => {
      state.reads++;
      return docs.get(key);
    },
    putState: async (key: string, value: unknown) => {
      state.writes++;
      docs.set(key, value);
    },
  };
  return state;
}

describe('bufferedStateAccess', () => {
  test('should read each document once and write changed ones only on flush', async () => {
    const inner = countingState();
    const buffered = bufferedStateAccess(inner);
    expect(await buffered.getState('a')).toEqual({ n: 1 });
    expect(await buffered.getState('missing')).toBeUndefined();
    await buffered.putState('a', { n: 2 });
    await buffered.putState('a', { n: 3 });
    expect(await buffered.getState('a')).toEqual({ n: 3 });
    expect([inner.reads, inner.writes]).toEqual([2, 0]);
    expect(inner.docs.get('a')).toEqual({ n: 1 });
    await buffered.flush();
    expect(inner.docs.get('a')).toEqual({ n: 3 });
    expect(inner.writes).toBe(1);
    await buffered.flush();
    expect(inner.writes).toBe(1);
  });
});
