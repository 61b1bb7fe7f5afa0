import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { POLL_FACTOR, startPolling } from './start-polling.js';

/** A load whose answers the test releases by hand, recording when each request started. */
function scriptedLoad() {
  const started: number[] = [];
  const pending: { resolve: () => void; reject: (e: Error) => void; signal: AbortSignal }[] = [];
  return {
    started,
    pending,
    load: (signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        started.push(Date.now());
        pending.push({ resolve, reject, signal });
      }),
    /** Answers the oldest request in flight after `ms`. */
    async answerAfter(ms: number, fail = false) {
      await vi.advanceTimersByTimeAsync(ms);
      const request = pending.shift();
      if (!request) throw new Error('no request in flight');
      if (fail) request.reject(new Error('locked'));
      else request.resolve();
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe('startPolling', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('should ask at once, then the plain interval after a quick answer', async () => {
    const s = scriptedLoad();
    const polling = startPolling({ load: s.load, everyMs: 3000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.started).toEqual([0]);
    await s.answerAfter(100);
    await vi.advanceTimersByTimeAsync(2999);
    expect(s.started).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.started).toEqual([0, 3100]);
    polling.stop();
  });

  test('should wait k times a slow answer before asking again', async () => {
    const s = scriptedLoad();
    const polling = startPolling({ load: s.load, everyMs: 3000 });
    await s.answerAfter(2000);
    await vi.advanceTimersByTimeAsync(POLL_FACTOR * 2000 - 1);
    expect(s.started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.started).toEqual([0, 2000 + POLL_FACTOR * 2000]);
    // A quicker answer brings the interval back down.
    await s.answerAfter(500);
    await vi.advanceTimersByTimeAsync(3000);
    expect(s.started).toEqual([0, 10_000, 13_500]);
    polling.stop();
  });

  test('should never have two requests in flight, however long one takes', async () => {
    const s = scriptedLoad();
    const polling = startPolling({ load: s.load, everyMs: 3000, factor: 4 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.started).toEqual([0]);
    expect(s.pending).toHaveLength(1);
    await s.answerAfter(0);
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(s.started).toEqual([0, 300_000]);
    polling.stop();
  });

  test('should ask again after a failed request, spaced by its duration too', async () => {
    const s = scriptedLoad();
    const polling = startPolling({ load: s.load, everyMs: 1000, factor: 2 });
    await s.answerAfter(5000, true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.started).toEqual([0, 15_000]);
    polling.stop();
  });

  test('should stop: abort the request in flight and ask no more', async () => {
    const s = scriptedLoad();
    const polling = startPolling({ load: s.load, everyMs: 3000 });
    await vi.advanceTimersByTimeAsync(10);
    const [request] = s.pending;
    polling.stop();
    expect(request?.signal.aborted).toBe(true);
    request?.reject(new Error('aborted'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.started).toEqual([0]);
  });

  test('should ask once without an interval, and stop asking when the interval is taken away', async () => {
    const once = scriptedLoad();
    startPolling({ load: once.load, everyMs: undefined });
    await once.answerAfter(10);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(once.started).toEqual([0]);

    vi.setSystemTime(0);
    const s = scriptedLoad();
    const polling = startPolling({ load: s.load, everyMs: 3000 });
    await s.answerAfter(10);
    await vi.advanceTimersByTimeAsync(3000);
    expect(s.started).toHaveLength(2);
    // The run finished while the second request was in flight: its answer is the last.
    polling.setEvery(undefined);
    await s.answerAfter(10);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.started).toHaveLength(2);
    // Live again (a resumed run): the next request is due from the last answer.
    polling.setEvery(3000);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.started).toHaveLength(3);
    polling.stop();
  });

  test('should hold each request until the gate opens, without counting the wait as its duration', async () => {
    const s = scriptedLoad();
    let open: () => void = () => {};
    const polling = startPolling({
      load: s.load,
      everyMs: 3000,
      before: () =>
        new Promise<void>((resolve) => {
          open = resolve;
        }),
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(s.started).toEqual([]);
    open();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.started).toEqual([5000]);
    await s.answerAfter(100);
    // 3 s after the answer (the 5 s wait did not make the request look slow), then the gate again.
    await vi.advanceTimersByTimeAsync(3000);
    expect(s.started).toEqual([5000]);
    open();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.started).toEqual([5000, 8100]);
    polling.stop();
  });
});
