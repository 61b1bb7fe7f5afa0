import { type SandboxShape, type StartedSandbox, shapeKey, startSandbox } from './run-code-runner.js';

/**
 * Sandboxes started ahead of their jobs, so a `/run_code` request does not wait for bubblewrap and
 * the supervisor's interpreter to start (about 20 ms of a trivial Python run's 40). Each sandbox
 * still runs exactly one job and exits; the pool only moves its start-up off the request's path.
 */
export interface SandboxPool {
  /** An idle sandbox of `shape`, or one started now when none is; the pool refills when its job ends. */
  take(shape: SandboxShape): StartedSandbox;
  /** Sandboxes started and waiting for a job. */
  idle(): number;
  /** Releases every idle sandbox and waits until they are gone; later takes start sandboxes cold. */
  close(): Promise<void>;
}

/**
 * How many shapes the pool keeps idle sandboxes for at once: the languages' distinct binds at one
 * memory limit number seven (none; PHP's, R's, racket's, mono's, LDC's configuration; the JVM's),
 * and a mixed workload of every language thrashed a pool of four (measured in BENCHMARKS.md).
 */
export const SHAPES = 8;

/**
 * A pool of `size` idle sandboxes per shape. A sandbox's tmpfs size and binds are fixed when it
 * starts, so idle sandboxes are kept per shape: each job, when it ends, refills the pool with its
 * shape, up to `size`. Past `SHAPES` shapes the oldest idle sandboxes of other shapes give way,
 * and a shape seldom asked for has the oldest ones. The pool thus follows the shapes requests ask
 * for (most trainers send one memory limit; Java adds its binds) without ever handing a job a
 * sandbox started for a different limit, and without a mix of languages evicting each other.
 */
export function createSandboxPool(size: number): SandboxPool {
  let idle: StartedSandbox[] = [];
  let closed = false;
  const forget = (sandbox: StartedSandbox) => {
    idle = idle.filter((s) => s !== sandbox);
  };
  const start = (shape: SandboxShape) => {
    const sandbox = startSandbox(shape);
    // One that dies while idle (killed by the host, a failed start) leaves the pool.
    void sandbox.closed.then(() => forget(sandbox));
    return sandbox;
  };
  const refill = (shape: SandboxShape) => {
    const key = shapeKey(shape);
    while (!closed && idle.filter((s) => s.key === key).length < size) {
      if (idle.length >= size * SHAPES) {
        const other = idle.find((s) => s.key !== key);
        if (other === undefined) return;
        forget(other);
        other.release();
      }
      idle.push(start(shape));
    }
  };
  return {
    take(shape) {
      const key = shapeKey(shape);
      const found = idle.find((s) => s.key === key && s.usable());
      if (found) forget(found);
      const taken = found ?? startSandbox(shape);
      // Refilled once the job is over, so starting the next sandboxes does not compete with the
      // job for the CPU; the pool's other idle sandboxes serve the requests meanwhile.
      void taken.closed.then(() => refill(shape));
      return taken;
    },
    idle: () => idle.length,
    async close() {
      closed = true;
      const stopping = idle;
      idle = [];
      for (const sandbox of stopping) sandbox.release();
      await Promise.all(stopping.map((s) => s.closed));
    },
  };
}
