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
  /** Bearer tokens; empty means no auth. */
  readonly tokens: readonly string[];
  /** Group method when a `/v1/groups` request names none. Default `grpo`. */
  readonly groupMethod: string;
  /** The float `/get_reward` sends for a sample that could not be scored. Default 0. */
  readonly failedReward: number;
}

export const DEFAULT_SERVER_OPTIONS: ServerOptions = {
  concurrency: 8,
  maxQueue: 1024,
  deadlineMs: 600_000,
  maxBodyBytes: 16 * 1024 * 1024,
  tokens: [],
  groupMethod: 'grpo',
  failedReward: 0,
};
