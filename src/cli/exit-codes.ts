/** Exit codes, documented in `rewardkit --help`. */
export const EXIT = {
  ok: 0,
  /** The command could not run: bad spec, unreadable content, a system error mid-run, internal error. */
  error: 1,
  /** Wrong flags or arguments, a path flag included (missing file, folder for a file). */
  usage: 2,
  /** The command ran, but some rows failed (see the summary and the output's `errors`). */
  rowsFailed: 3,
  /**
   * Stopped because the backend is down: the circuit breaker opened after
   * `--max-consecutive-failures` calls in a row failed to reach it. What was done is written and
   * resumable.
   */
  backendDown: 4,
  /** Interrupted (Ctrl-C); what was done is written and resumable. */
  interrupted: 130,
} as const;
