import { resolve } from 'node:path';
import type { Command } from 'commander';
import { verdictLine } from '../../lab/claim-verdict.js';
import { MDM_DEFAULTS, MDM_FULL, mdmOptionsSchema } from '../../lab/mdm-options.js';
import { parseLabConfig } from '../../lab/model-config.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { addLabOptions, labOptions } from './lab-flags.js';
import { labProgress } from './lab-progress.js';
import { loadLab } from './load-lab.js';

const HELP: Record<string, string> = {
  task: 'addition or sorting',
  digits: 'digits per operand (sorting: digits + 2 numbers)',
  methods:
    "standard, ppots, mirror, pair (two independent masks: MIRROR's compute-matched baseline), strats, isad, ppots+mirror, ar (autoregressive baseline)",
  seeds: 'seeds of the training comparison',
  width: 'model width',
  heads: 'attention heads (must divide --width)',
  depth: 'layers',
  lr: 'peak learning rate',
  batch: 'examples per step',
  steps: 'training steps per run',
  warmup: 'linear warmup steps',
  evalExamples: 'held-out examples scored by exact match',
  varianceDraws: 't-draws on the fixed batch (component B)',
  varianceMasks: 'mask draws per t (component A)',
  varianceSteps:
    'standard training steps of the reference model (P-POTS profile, variance point; ar: its own causal reference)',
  ppotsGrid: 'N of the grid linspace(1/N, 1 - 1/N, N - 1)',
  ppotsExamples: 'examples for the profile estimate',
  ppotsMasks: 'mask draws per example and grid point',
  weightCap: 'cap on the P-POTS importance weight 1/p(t)',
  logEvery: 'log one metrics line every n steps',
  checkpointEvery: 'checkpoint every n steps',
};

/** `rewardkit lab mdm`: masked-diffusion training variance — P-POTS, MIRROR, StraTS, ISAD. */
export function registerLabMdmCommand(lab: Command, state: CommandState): void {
  const command = lab
    .command('mdm')
    .description(
      'Masked-diffusion LM on synthetic tasks: variance (A, B, C) and accuracy of P-POTS, MIRROR, StraTS, ISAD against compute-matched and autoregressive baselines',
    );
  addLabOptions(command, MDM_DEFAULTS, HELP)
    .option('--full', "the notes' comparison: every method, 5 seeds, 2000 steps")
    .option(
      '-o, --out <dir>',
      'output folder: metrics.jsonl, summary.json, report.html, runs/ (checkpoints)',
      'lab-runs/mdm',
    )
    .option('--no-progress', 'no progress bar')
    .addHelpText(
      'after',
      `
A bidirectional transformer learns prompt -> response (prompt never masked); the loss is the ELBO
(1/|R|) sum over masked response tokens CE_i / p, p = (1 - 1e-3) t + 1e-3. Rerunning with the same
--out skips finished runs and resumes an interrupted one.
Rows per step: standard, ppots, strats, isad, ar train --batch rows; mirror, pair, ppots+mirror
2 x --batch. Each method is judged against the baseline with its rows (ppots, strats, isad vs
standard; mirror, ppots+mirror vs pair); ar gives the variance decomposition (C vs A+B+C).
One verdict line per claim on stdout: held, not held, inconclusive (its 95% interval over seeds
spans 0) or too small (below the documented minimum, or too few seeds), with the reason.`,
    )
    .action(async (flags: { full?: boolean; out: string; progress: boolean }) => {
      const options = parseLabConfig(
        mdmOptionsSchema,
        labOptions(command, flags.full ? MDM_FULL : MDM_DEFAULTS),
      );
      const lab = await loadLab();
      await lab.loadTf();
      const out = resolve(flags.out);
      const progress = labProgress('mdm', flags.progress);
      let report: ReturnType<typeof lab.runMdmExperiment>;
      try {
        report = lab.runMdmExperiment(options, out, (done, total) => progress.update(done, total));
      } finally {
        progress.stop();
      }
      await lab.writeLabReport(out, report);
      for (const verdict of report.verdicts) process.stdout.write(`${verdictLine(verdict)}\n`);
      process.stderr.write(`rewardkit lab mdm: report ${out}/report.html\n`);
      state.exitCode = EXIT.ok;
    });
}
