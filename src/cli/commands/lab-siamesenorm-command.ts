import { resolve } from 'node:path';
import type { Command } from 'commander';
import { verdictLine } from '../../lab/claim-verdict.js';
import { parseLabConfig } from '../../lab/model-config.js';
import {
  SIAMESENORM_DEFAULTS,
  SIAMESENORM_FULL,
  siameseNormOptionsSchema,
} from '../../lab/siamesenorm-options.js';
import { STALL_FRACTION } from '../../lab/siamesenorm-run.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { addLabOptions, labOptions } from './lab-flags.js';
import { labProgress } from './lab-progress.js';
import { loadLab } from './load-lab.js';

const HELP: Record<string, string> = {
  depths: 'model depths',
  lrs: 'peak learning rates',
  seeds: 'seeds (init and data order)',
  norms: 'norm placements: pre, post, deepnorm, siamese',
  width: 'model width',
  heads: 'attention heads (must divide --width)',
  seqLen: 'characters per sequence',
  batch: 'sequences per step',
  steps: 'training steps per run',
  warmup: 'linear warmup steps before the cosine decay',
  corpusChars: 'characters of grammar text generated (10% held out)',
  evalBatches: 'validation batches',
  logEvery: 'log one metrics line every n steps',
  checkpointEvery: 'checkpoint every n steps',
  spikeFactor: 'a loss above this × the best so far is a spike',
};

/** `rewardkit lab siamesenorm`: the norm-placement sweep of the SiameseNorm notes. */
export function registerLabSiameseNormCommand(lab: Command, state: CommandState): void {
  const command = lab
    .command('siamesenorm')
    .description(
      'SiameseNorm vs Pre-Norm, Post-Norm, DeepNorm: a character-level LM sweep with divergence detection',
    );
  addLabOptions(command, SIAMESENORM_DEFAULTS, HELP)
    .option(
      '--full',
      "the notes' sweep: depths 6,24, lrs 1e-3,3e-3,1e-2, seeds 0,1,2, 600 steps (hours on 2 cores)",
    )
    .option(
      '-o, --out <dir>',
      'output folder: metrics.jsonl, summary.json, report.html, runs/ (checkpoints)',
      'lab-runs/siamesenorm',
    )
    .option('--no-progress', 'no progress bar')
    .addHelpText(
      'after',
      `
Rerunning with the same --out skips finished runs and resumes an interrupted one from its checkpoint.
A run whose loss turns NaN/inf is stopped and recorded as diverged at that step; a loss above
--spike-factor × its best so far is recorded as a spike. A run is stable when it neither
diverged nor stalled (stalled: final validation loss not below ${STALL_FRACTION} × its first step's
loss); spikes alone do not count.
Verdicts, paired by seed: at the highest of --lrs and per depth, SiameseNorm stable where
Post-Norm (and DeepNorm) is not; with two depths or more, that their instability grows from the
shallowest depth to the deepest more than SiameseNorm's; per depth, SiameseNorm's validation loss
below Pre-Norm's at the highest lr where Pre-Norm is stable on every seed (both at that one lr).
One verdict line per claim on stdout: held, not held, inconclusive (its 95% interval over seeds
spans 0) or too small (below the documented minimum, or too few seeds), with the reason.`,
    )
    .action(async (flags: { full?: boolean; out: string; progress: boolean }) => {
      const defaults = flags.full ? SIAMESENORM_FULL : SIAMESENORM_DEFAULTS;
      const options = parseLabConfig(siameseNormOptionsSchema, labOptions(command, defaults));
      const lab = await loadLab();
      await lab.loadTf();
      const out = resolve(flags.out);
      const progress = labProgress('siamesenorm', flags.progress);
      let report: ReturnType<typeof lab.runSiameseNormExperiment>;
      try {
        report = lab.runSiameseNormExperiment(options, out, (done, total) => progress.update(done, total));
      } finally {
        progress.stop();
      }
      await lab.writeLabReport(out, report);
      for (const verdict of report.verdicts) process.stdout.write(`${verdictLine(verdict)}\n`);
      process.stderr.write(`rewardkit lab siamesenorm: report ${out}/report.html\n`);
      state.exitCode = EXIT.ok;
    });
}
