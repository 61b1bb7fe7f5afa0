import type { Command } from 'commander';
import type { CommandState } from '../command-state.js';
import { registerJudgeRowsCommands } from './judge-rows-command.js';

/** `rewardkit check`: grounding checks of answers against their sources (`check claims`: the claims kind's rows). */
export function registerCheckCommand(check: Command, state: CommandState): void {
  registerJudgeRowsCommands(check, state);
}
