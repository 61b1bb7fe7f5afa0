import type { Command } from 'commander';
import type { CommandState } from '../command-state.js';
import { addDeprecatedCommand } from '../deprecated-command.js';
import { nonNegativeInt } from '../number-flags.js';
import { addEvpvRoleOptions } from './evpv-roles.js';
import { EVPV_ROWS_HELP, type EvpvRowsFlags, runEvpvRows } from './evpv-rows.js';
import { addJsonlOptions, JSONL_OUTPUT_HELP } from './jsonl-command.js';
import { JUDGE_CACHE_HELP } from './judge-model.js';

/** `rewardkit evpv score`: the old name of `judge evpv --bench-rows`, kept working. */
export function registerEvpvScoreCommand(evpv: Command, state: CommandState): void {
  addEvpvRoleOptions(
    addJsonlOptions(
      addDeprecatedCommand(evpv, {
        name: 'score',
        replacement: 'judge evpv --bench-rows',
        description:
          'EVPV with the LLM roles: rows {"id", "question", "image", "candidates"} -> gated step scores per candidate',
      }),
      { concurrency: 4 },
    ),
  )
    .option('--reasks <n>', 're-asks after unreadable output, per call', nonNegativeInt('--reasks'), 2)
    .addHelpText(
      'after',
      `
${EVPV_ROWS_HELP}
${JSONL_OUTPUT_HELP}
${JUDGE_CACHE_HELP}

Example:
  rewardkit evpv score --models models.yaml --model vlm --input problems.jsonl -o scored.jsonl`,
    )
    .action((flags: EvpvRowsFlags) => runEvpvRows(flags, 'evpv score', state));
}
