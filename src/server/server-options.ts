/** How the reward server behaves; the CLI fills these from flags and the environment. */
export interface ServerOptions {
  /** Samples (or groups) scored at once. Default 8. */
  readonly concurrency: number;
  /** Jobs allowed to wait beyond the free workers before 429. Default 1024. */
  readonly maxQueue: number;
  /** Longest a request may take, ms. Default 600000 (10 min). */
  readonly deadlineMs: number;
  /** Largest request body, bytes. Default 16 MiB. */
  readonly maxBodyBytes: number;
  /** Longest the request line and headers may take to arrive, ms; then 408. Default 10 s. */
  readonly headersTimeoutMs: number;
  /** Longest a request body may take to arrive, ms; then 408. Default 60 s. */
  readonly bodyTimeoutMs: number;
  /** Bearer tokens; empty means no auth. */
  readonly tokens: readonly string[];
  /** Group method when a `/v1/groups` request names none. Default `grpo`. */
  readonly groupMethod: string;
  /** The float `/get_reward` sends for a sample that could not be scored. Default 0. */
  readonly failedReward: number;
  /** What `/run_code` does when the queue is full; see {@link RunCodeServerLimits}. */
  readonly runCode: RunCodeServerLimits;
}

/**
 * Limits a `/run_code` request cannot lift: larger asks are lowered to these (and the answer's
 * `X-RewardKit-Capped` header says which), so no request holds a worker longer than the server allows.
 */
export interface RunCodeServerLimits {
  /** Longest `run_timeout`, seconds. Default 60. */
  readonly maxRunTimeoutS: number;
  /** Longest `compile_timeout`, seconds. Default 60. */
  readonly maxCompileTimeoutS: number;
  /** Largest `memory_limit_MB`. Default 4096. */
  readonly maxMemoryMb: number;
  /**
   * `wait` (the default): a request that finds the queue full waits for a worker until its
   * deadline, then gets 504 — verl retries 504 and nothing else, so a 429 would lose the test
   * case. `refuse`: 429 with Retry-After, as the other routes answer.
   */
  readonly whenFull: 'wait' | 'refuse';
  /**
   * What answers carry as `executor_pod_name`, which upstream fills from `$MY_POD_NAME`: `serve`
   * sets `$MY_POD_NAME`, else the host name, so a client behind a load balancer sees which
   * machine ran its code. Unset: null.
   */
  readonly executorName?: string;
}

export const DEFAULT_SERVER_OPTIONS: ServerOptions = {
  concurrency: 8,
  maxQueue: 1024,
  deadlineMs: 600_000,
  maxBodyBytes: 16 * 1024 * 1024,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 60_000,
  tokens: [],
  groupMethod: 'grpo',
  failedReward: 0,
  runCode: { maxRunTimeoutS: 60, maxCompileTimeoutS: 60, maxMemoryMb: 4096, whenFull: 'wait' },
};
