import { type Command, Option } from 'commander';
import { RewardKitError } from '../core/index.js';
import type { CommandState } from './command-state.js';
import { nonNegativeInt } from './number-flags.js';

/** Model calls in a row that may fail to reach the backend before a command stops (exit 4). */
export const MAX_CONSECUTIVE_FAILURES = 5;

/** The flag of every command that calls models. */
export interface BreakerFlags {
  maxConsecutiveFailures: number;
}

/** `--max-consecutive-failures <n>` (default 5; 0 never stops). */
export function breakerOption(): Option {
  return new Option(
    '--max-consecutive-failures <n>',
    'stop (exit 4, resumable) once this many model calls in a row failed, after their retries, for want of a backend: no answer, or HTTP 408/409/429/5xx (0: never stop)',
  )
    .argParser(nonNegativeInt('--max-consecutive-failures'))
    .default(MAX_CONSECUTIVE_FAILURES);
}

/** Adds `--max-consecutive-failures <n>` to a command that calls models. */
export function addBreakerOption(command: Command): Command {
  return command.addOption(breakerOption());
}

/** What `loadConfiguredModels` needs to put a command's models behind its circuit breaker. */
export interface BreakerGuard {
  readonly maxConsecutiveFailures: number;
  readonly state: CommandState;
}

/** The guard of a command's flags; the state keeps the breaker, which `runCli` reads at the end. */
export const breakerGuard = (flags: Partial<BreakerFlags>, state: CommandState): BreakerGuard => ({
  maxConsecutiveFailures: flags.maxConsecutiveFailures ?? MAX_CONSECUTIVE_FAILURES,
  state,
});

/**
 * The signal that stops a run loop: Ctrl-C (`own`) or the circuit breaker opening, whichever
 * comes first.
 */
export function runSignal(own: AbortSignal, state: CommandState): AbortSignal {
  return state.breaker ? AbortSignal.any([own, state.breaker.signal]) : own;
}

/**
 * A runner's `withhold`: a record that `failed` once the breaker had opened was not really worked
 * on (its calls were refused, or went to a backend already found down), so it is not written and a
 * rerun does it.
 */
export function withholdOnceOpen<T>(
  state: CommandState,
  failed: (record: T) => boolean,
): (record: T) => boolean {
  return (record) => state.breaker?.opened !== undefined && failed(record);
}

/**
 * Stops a run loop once the breaker has opened: a failure after that was a refused call, not a
 * verdict on the row, so it is not recorded as the row's failure (`runCli` then says the backend
 * is down, exit 4).
 */
export function throwIfBackendDown(state: Pick<CommandState, 'breaker'>): void {
  const opened = state.breaker?.opened;
  if (opened !== undefined)
    throw new RewardKitError('RK_BACKEND_UNAVAILABLE', `backend down: ${opened.message}`);
}

/** The line `runCli` prints when the breaker stopped the command. */
export function backendDownMessage(state: CommandState): string | undefined {
  const opened = state.breaker?.opened;
  if (!opened) return undefined;
  // The last error may end a sentence of its own ("Connection error.").
  const why = opened.message.replace(/\.$/, '');
  const kept = state.keptOnStop ?? 'What was done is written';
  return `rewardkit: stopped: ${why}. ${kept}: run the same command again once the backend answers (--max-consecutive-failures 0 never stops)\n`;
}
