import { afterEach, describe, expect, test, vi } from 'vitest';
import { startRunLease } from './run-lease.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('startRunLease', () => {
  test('should renew the owned runs and look for stale ones four times per lease, until stopped', async () => {
    vi.useFakeTimers();
    const renewed: string[][] = [];
    let sweeps = 0;
    const lease = startRunLease({
      leaseMs: 1000,
      renew: async (ids) => {
        renewed.push([...ids]);
      },
      closeStale: async () => {
        sweeps++;
      },
    });
    lease.own('a');
    lease.own('b');
    await vi.advanceTimersByTimeAsync(250);
    lease.release('a');
    await vi.advanceTimersByTimeAsync(750);
    expect(renewed).toEqual([['a', 'b'], ['b'], ['b'], ['b']]);
    expect(sweeps).toBe(4);
    lease.release('b');
    await vi.advanceTimersByTimeAsync(250);
    // Nothing owned: nothing renewed, but others' runs are still looked at.
    expect(renewed).toHaveLength(4);
    expect(sweeps).toBe(5);
    lease.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweeps).toBe(5);
  });

  test('should not start a beat while the last one waits on a hung store, and go on after a failed one', async () => {
    vi.useFakeTimers();
    let calls = 0;
    let release: () => void = () => {};
    const lease = startRunLease({
      leaseMs: 400,
      renew: async () => {
        calls++;
        if (calls === 1) throw new Error('store down');
        if (calls === 2) await new Promise<void>((resolve) => (release = resolve));
      },
      closeStale: async () => {},
    });
    lease.own('a');
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    // Hung: three more ticks pass without a new beat.
    await vi.advanceTimersByTimeAsync(300);
    expect(calls).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(3);
    lease.stop();
  });
});
