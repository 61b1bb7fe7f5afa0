import { CommanderError } from 'commander';
import { RewardKitError } from '../core/index.js';
import { backendDownMessage } from './backend-breaker.js';
import type { CommandState } from './command-state.js';
import { EXIT } from './exit-codes.js';
import { createProgram } from './program.js';

/**
 * Parses argv and runs one command; returns the exit code. Only this outermost layer turns
 * errors into messages and codes.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const state: CommandState = { exitCode: EXIT.ok };
  try {
    const program = await createProgram(argv, state);
    await program.parseAsync([...argv], { from: 'user' });
    return backendDown(state) ?? state.exitCode;
  } catch (error) {
    // Whatever a command made of its failed calls, a stop by the breaker is said as one.
    const down = backendDown(state);
    if (down !== undefined) return down;
    if (error instanceof CommanderError) {
      // Commander has already printed the message (or the help/version text).
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (RewardKitError.isInstance(error)) {
      process.stderr.write(`rewardkit: ${error.message}\n`);
      return error.code === 'RK_USAGE' ? EXIT.usage : EXIT.error;
    }
    if (isSystemError(error)) {
      // The machine refused (a full disk, a file that takes no writes): no bug of ours, so no stack.
      process.stderr.write(`rewardkit: ${error.message}\n`);
      return EXIT.error;
    }
    process.stderr.write(`rewardkit: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT.error;
  }
}

/** An error from a system call (`EIO: i/o error, write`), which carries its errno code and call. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  const e = error as NodeJS.ErrnoException | undefined;
  return typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code) && typeof e.syscall === 'string';
}

/** Exit 4 with the breaker's one message, when it stopped the command. */
function backendDown(state: CommandState): number | undefined {
  const message = backendDownMessage(state);
  if (message === undefined) return undefined;
  process.stderr.write(message);
  return EXIT.backendDown;
}
