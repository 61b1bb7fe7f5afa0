import type { Command } from 'commander';
import type { CommandState } from '../command-state.js';
import { registerLabDirCommand } from './lab-dir-command.js';
import { registerLabGapCommand } from './lab-gap-command.js';
import { registerLabMdmCommand } from './lab-mdm-command.js';
import { registerLabRlvrCommand } from './lab-rlvr-command.js';
import { registerLabSiameseNormCommand } from './lab-siamesenorm-command.js';

/** `rewardkit lab`: small, seeded experiments on a CPU that check the direction of the model-side papers' claims at toy scale (docs/lab.md). */
export function registerLabCommand(lab: Command, state: CommandState): void {
  registerLabSiameseNormCommand(lab, state);
  registerLabMdmCommand(lab, state);
  registerLabGapCommand(lab, state);
  registerLabDirCommand(lab, state);
  registerLabRlvrCommand(lab, state);
}
