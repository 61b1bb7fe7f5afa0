import { resolve } from 'node:path';
import type { Command } from 'commander';
import { verdictLine } from '../../lab/claim-verdict.js';
import { DIR_DEFAULTS, dirOptionsSchema } from '../../lab/dir-options.js';
import { parseLabConfig } from '../../lab/model-config.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { addLabOptions, labOptions } from './lab-flags.js';
import { labProgress } from './lab-progress.js';
import { loadLab } from './load-lab.js';

const HELP: Record<string, string> = {
  attributes: 'bias attributes the CLUB term penalizes and the MI is reported for: length, format',
  bias: 'training pairs where the chosen response is the longer one (probability)',
  formatBias: 'training pairs where the chosen response has more markdown (probability)',
  labelNoise: 'training pairs where the annotator chose the worse content (probability)',
  lambda: 'weight of the CLUB term in DIR: L_BT + lambda * I',
  qSteps: "K: AdamW steps of each q on the batch's detached z before each reward-model step",
  qLr: "q's learning rate",
  qHidden: "q's hidden width (MLP d -> hidden -> ReLU -> 2)",
  width: 'reward model width',
  heads: 'attention heads (must divide --width)',
  depth: 'layers (causal, pre-norm)',
  lr: 'peak learning rate of the reward models',
  batch: 'preference pairs per step',
  steps: 'reward-model steps (the same for BT and DIR)',
  warmup: 'linear warmup steps',
  evalPairs: 'pairs in each evaluation set (bias-balanced and biased)',
  refitSteps: 'steps of the fresh q fitted on the final representations for the MI estimate',
  seeds: 'seeds: each trains BT and DIR from the same init on the same batches',
  logEvery: 'log one metrics line every n steps',
  checkpointEvery: 'checkpoint every n steps',
};

/** `rewardkit lab dir`: a Bradley–Terry reward model against DIR on length-biased synthetic preferences. */
export function registerLabDirCommand(lab: Command, state: CommandState): void {
  const command = lab
    .command('dir')
    .description(
      'DIR: a Bradley-Terry reward model vs BT + lambda * CLUB(representation; length, format) on biased synthetic preferences',
    );
  addLabOptions(command, DIR_DEFAULTS, HELP)
    .option(
      '-o, --out <dir>',
      'output folder: metrics.jsonl, summary.json, report.html, runs/ (checkpoints)',
      'lab-runs/dir',
    )
    .option('--no-progress', 'no progress bar')
    .addHelpText(
      'after',
      `
Pairs: the chosen response has more "good" tokens (content); in training it is also the longer
(--bias) and the more formatted one (--format-bias); in the bias-balanced evaluation set length and
format are independent of the label. Rerunning with the same --out resumes.
One verdict line per claim on stdout: held, not held, inconclusive (its 95% interval over seeds
spans 0) or too small (below the documented minimum, or too few seeds), with the reason.`,
    )
    .action(async (flags: { out: string; progress: boolean }) => {
      const options = parseLabConfig(dirOptionsSchema, labOptions(command, DIR_DEFAULTS));
      const lab = await loadLab();
      await lab.loadTf();
      const out = resolve(flags.out);
      const progress = labProgress('dir', flags.progress);
      let report: ReturnType<typeof lab.runDirExperiment>;
      try {
        report = lab.runDirExperiment(options, out, (done, total) => progress.update(done, total));
      } finally {
        progress.stop();
      }
      await lab.writeLabReport(out, report);
      for (const verdict of report.verdicts) process.stdout.write(`${verdictLine(verdict)}\n`);
      process.stderr.write(`rewardkit lab dir: report ${out}/report.html\n`);
      state.exitCode = EXIT.ok;
    });
}
