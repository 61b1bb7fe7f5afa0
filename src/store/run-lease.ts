/** How long a running run may go without a heartbeat before it counts as abandoned (default). */
export const DEFAULT_RUN_LEASE_MS = 60_000;

export interface RunLeaseOptions {
  readonly leaseMs: number;
  /** Renews the heartbeat of the runs this process owns. */
  renew(runIds: readonly string[]): Promise<void>;
  /** Closes the runs whose heartbeat is older than the lease, whoever owned them. */
  closeStale(): Promise<unknown>;
}

/**
 * The lease on the runs a store created or reopened: while the store is open their heartbeat is
 * renewed four times per lease, and runs that other processes abandoned (killed, out of memory,
 * their machine gone) are closed. A failed beat is left to the next one: an outage of the store
 * is reported by the work that needs the store, not by this timer.
 */
export interface RunLease {
  own(runId: string): void;
  release(runId: string): void;
  stop(): void;
}

export function startRunLease(options: RunLeaseOptions): RunLease {
  const owned = new Set<string>();
  let beating = false;
  const beat = async () => {
    // A store that hangs must not pile up beats: the next waits for this one.
    if (beating) return;
    beating = true;
    try {
      if (owned.size > 0) await options.renew([...owned]);
      await options.closeStale();
    } catch {
      // Said by the requests and commands that use the store; retried at the next beat.
    } finally {
      beating = false;
    }
  };
  const timer = setInterval(beat, Math.max(10, Math.floor(options.leaseMs / 4)));
  // The lease never keeps a process alive: a command that is done exits, its lease lapses.
  timer.unref();
  return {
    own: (runId) => owned.add(runId),
    release: (runId) => owned.delete(runId),
    stop: () => clearInterval(timer),
  };
}
