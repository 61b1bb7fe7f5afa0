import type { CircuitBreaker } from '../llm/index.js';

/** What a command reports back to `runCli` besides throwing. */
export interface CommandState {
  exitCode: number;
  /**
   * The circuit breaker around the command's models (`--max-consecutive-failures`), once they are
   * loaded: when it has opened, `runCli` says so and exits 4 whatever the command decided.
   */
  breaker?: CircuitBreaker;
  /**
   * What the command keeps of its work when the breaker stops it, for `runCli`'s stop line; the
   * default, "What was done is written", holds for commands that write rows as they go.
   */
  keptOnStop?: string;
}
