/**
 * The web app's polling of a live run's statistics (imported by web/src as it is, so it imports
 * nothing). One request of a kind at a time: the next starts `max(everyMs, factor × duration of
 * the last)` after the last one answered, so a query that grows slow with its run is asked less
 * often instead of piling up behind itself on a store that answers one query at a time.
 */

/**
 * How many times a request's own duration the poller waits before asking again. With k = 4 one
 * kind of request holds the store at most 1/(k+1) = 20% of the time, so a samples page asked at a
 * random moment finds it busy with that kind at most one time in five; a 3.3 s aggregation of a
 * 1M-result run is then asked every 13 s, still live enough for a run that takes hours, and any
 * query under 0.75 s keeps the plain interval (3 s on the run page).
 */
export const POLL_FACTOR = 4;

export interface PollingOptions {
  /** One request; it should give up when `signal` aborts. Its rejection is the caller's to report. */
  readonly load: (signal: AbortSignal) => Promise<void>;
  /** The shortest time between one answer and the next request; undefined: ask once, never again. */
  readonly everyMs: number | undefined;
  /** Default POLL_FACTOR. */
  readonly factor?: number;
  /** Awaited before each request (not counted in its duration): e.g. until the table's page answered. */
  readonly before?: () => Promise<void>;
  /** Milliseconds on a monotonic clock (default `Date.now`, which fake timers move). */
  readonly now?: () => number;
}

export interface Polling {
  /** Ask again from now on every so often, or (undefined) no more after the request in flight. */
  setEvery(everyMs: number | undefined): void;
  /** Abort the request in flight and ask no more. */
  stop(): void;
}

/** Starts asking at once: the first request, then the next after each answer as set. */
export function startPolling(options: PollingOptions): Polling {
  const factor = options.factor ?? POLL_FACTOR;
  const now = options.now ?? Date.now;
  const controller = new AbortController();
  let everyMs = options.everyMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  // When the last request answered and how long it took; undefined before the first answer.
  let last: { at: number; tookMs: number } | undefined;

  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    if (controller.signal.aborted || inFlight || everyMs === undefined || last === undefined) return;
    const dueAt = last.at + Math.max(everyMs, factor * last.tookMs);
    timer = setTimeout(run, Math.max(0, dueAt - now()));
  };

  async function run(): Promise<void> {
    timer = undefined;
    inFlight = true;
    try {
      await options.before?.();
    } catch {
      // A gate that fails holds nothing back.
    }
    const started = now();
    if (!controller.signal.aborted) {
      try {
        await options.load(controller.signal);
      } catch {
        // The caller reports a failed request; a store that failed is asked again all the same.
      }
    }
    const at = now();
    last = { at, tookMs: at - started };
    inFlight = false;
    schedule();
  }

  void run();
  return {
    setEvery(ms) {
      everyMs = ms;
      schedule();
    },
    stop() {
      controller.abort();
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
