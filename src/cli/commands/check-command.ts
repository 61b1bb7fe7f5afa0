import type { Command } from 'commander';
import type { CommandState } from '../command-state.js';
import { registerJudgeRowsCommands } from './judge-rows-command.js';

/** `rewardkit check`: only `check claims` now, the old name of `judge claims --bench-rows`, kept working. */
export function registerCheckCommand(check: Command, state: CommandState): void {
  registerJudgeRowsCommands(check, state);
}
