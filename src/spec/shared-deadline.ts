/**
 * One timer and one abort signal for every source run started in the same turn of the event loop
 * under the same caller signal and time budget — a request's or a file batch's samples all start
 * together, so they share one deadline instead of each creating a controller, a listener and a
 * timer. They would all time out at the same moment anyway.
 *
 * The deadline is joined lazily: a run that finishes synchronously without reading its signal
 * (a verifier, which no timer could interrupt anyway) creates no controller and no timer at all.
 */
interface Deadline {
  readonly controller: AbortController;
  readonly expired: Promise<never>;
  readonly stop: () => void;
  users: number;
}

/** What a run sees of its deadline: the signal, created on first read. */
export interface LazyDeadline {
  readonly signal: AbortSignal;
}

/**
 * A class rather than an object literal with a getter: V8 defines a literal's accessor at run time
 * on every call (2% of a server's main thread in a profile of `/get_reward`, one per sample).
 */
class LazySignal implements LazyDeadline {
  constructor(private readonly join: () => Deadline) {}
  get signal(): AbortSignal {
    return this.join().controller.signal;
  }
}

/** Deadlines that runs starting in this turn may still join, by caller signal and budget. */
const joinable = new WeakMap<AbortSignal, Map<number, Deadline>>();

export function withSharedDeadline<T>(
  callerSignal: AbortSignal,
  budgetMs: number,
  work: (deadline: LazyDeadline) => T | Promise<T>,
): T | Promise<T> {
  let joined: Deadline | undefined;
  const join = () => {
    if (!joined) {
      joined = joinDeadline(callerSignal, budgetMs);
      joined.users++;
    }
    return joined;
  };
  const leave = () => {
    if (joined) leaveDeadline(callerSignal, budgetMs, joined);
  };
  let result: T | Promise<T>;
  try {
    result = work(new LazySignal(join));
  } catch (error) {
    leave();
    throw error;
  }
  if (!isThenable(result)) {
    leave();
    return result;
  }
  return Promise.race([result, join().expired]).finally(leave);
}

const isThenable = <T>(value: T | Promise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

function joinDeadline(callerSignal: AbortSignal, budgetMs: number): Deadline {
  let byBudget = joinable.get(callerSignal);
  if (!byBudget) {
    const fresh = new Map<number, Deadline>();
    byBudget = fresh;
    joinable.set(callerSignal, fresh);
    setImmediate(() => {
      if (joinable.get(callerSignal) === fresh) joinable.delete(callerSignal);
    });
  }
  let deadline = byBudget.get(budgetMs);
  if (!deadline) {
    deadline = startDeadline(callerSignal, budgetMs);
    byBudget.set(budgetMs, deadline);
  }
  return deadline;
}

function leaveDeadline(callerSignal: AbortSignal, budgetMs: number, deadline: Deadline): void {
  deadline.users--;
  if (deadline.users > 0) return;
  deadline.stop();
  const byBudget = joinable.get(callerSignal);
  if (byBudget?.get(budgetMs) === deadline) byBudget.delete(budgetMs);
}

function startDeadline(callerSignal: AbortSignal, budgetMs: number): Deadline {
  const controller = new AbortController();
  const onAbort = () => controller.abort(callerSignal.reason);
  callerSignal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected first, so the race names the timeout rather than a source's own abort error.
      reject(new Error(`timed out after ${budgetMs} ms`));
      controller.abort();
    }, budgetMs);
  });
  // Every run racing it handles the rejection; this keeps a last, unraced one from going unhandled.
  expired.catch(() => {});
  return {
    controller,
    expired,
    users: 0,
    stop: () => {
      clearTimeout(timer);
      callerSignal.removeEventListener('abort', onAbort);
    },
  };
}
