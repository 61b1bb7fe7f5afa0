import { afterEach, describe, expect, test, vi } from 'vitest';
import { withSharedDeadline } from './shared-deadline.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('withSharedDeadline', () => {
  test('should give runs started together one timer, cleared when the last one ends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const caller = new AbortController().signal;
    const signals: AbortSignal[] = [];
    const gates: (() => void)[] = [];
    const runs = Array.from({ length: 16 }, () =>
      withSharedDeadline(caller, 1000, ({ signal }) => {
        signals.push(signal);
        return new Promise<void>((resolve) => gates.push(resolve));
      }),
    );
    await Promise.resolve();
    await Promise.resolve();
    expect(vi.getTimerCount()).toBe(1);
    expect(new Set(signals).size).toBe(1);
    for (const open of gates) open();
    await Promise.all(runs);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('should time out every run of the budget with the budget in the message and abort their signal', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let seen: AbortSignal | undefined;
    const run = withSharedDeadline(new AbortController().signal, 50, ({ signal }) => {
      seen = signal;
      return new Promise<never>(() => {});
    });
    const outcome = expect(run).rejects.toThrow('timed out after 50 ms');
    await vi.advanceTimersByTimeAsync(50);
    await outcome;
    expect(seen?.aborted).toBe(true);
  });

  test('should pass the caller’s abort on to the work, with its reason', async () => {
    const caller = new AbortController();
    const run = withSharedDeadline(
      caller.signal,
      10_000,
      ({ signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    caller.abort(new Error('client left'));
    await expect(run).rejects.toThrow('client left');
  });

  test('should keep budgets apart: a shorter budget does not cut a longer one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const caller = new AbortController().signal;
    const short = withSharedDeadline(caller, 10, () => new Promise<never>(() => {}));
    const short_ = expect(short).rejects.toThrow('timed out after 10 ms');
    const long = withSharedDeadline(
      caller,
      1000,
      () => new Promise((resolve) => setTimeout(() => resolve('done'), 100)),
    );
    await vi.advanceTimersByTimeAsync(100);
    await short_;
    await expect(long).resolves.toBe('done');
  });

  test('should create no timer for a run that finishes synchronously without reading its signal', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const value = withSharedDeadline(new AbortController().signal, 1000, () => 7);
    expect(value).toBe(7);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('should clear the timer of a synchronous run that read its signal', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const value = withSharedDeadline(new AbortController().signal, 1000, ({ signal }) => signal.aborted);
    expect(value).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('should still time out an asynchronous run that never reads its signal', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const run = withSharedDeadline(new AbortController().signal, 30, () => new Promise<never>(() => {}));
    const outcome = expect(run).rejects.toThrow('timed out after 30 ms');
    await vi.advanceTimersByTimeAsync(30);
    await outcome;
    expect(vi.getTimerCount()).toBe(0);
  });

  test('should release the deadline of a run that throws synchronously', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(() =>
      withSharedDeadline(new AbortController().signal, 1000, ({ signal }) => {
        void signal;
        throw new Error('bad input');
      }),
    ).toThrow('bad input');
    expect(vi.getTimerCount()).toBe(0);
  });
});
