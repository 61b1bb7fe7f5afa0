import { resolve } from 'node:path';
import type { Command } from 'commander';
import { verdictLine } from '../../lab/claim-verdict.js';
import { GAP_DEFAULTS, gapOptionsSchema } from '../../lab/gap-options.js';
import { parseLabConfig } from '../../lab/model-config.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { addLabOptions, labOptions } from './lab-flags.js';
import { labProgress } from './lab-progress.js';
import { loadLab } from './load-lab.js';

const HELP: Record<string, string> = {
  modes: 'latent feedback modes: none (no-latent control), raw, norm-matched, pca',
  width: 'model width',
  heads: 'attention heads (must divide --width)',
  depth: 'layers (pre-norm)',
  lr: 'peak learning rate',
  batch: 'examples per step',
  baseSteps: 'steps of the base model on the text chain',
  latentSteps: 'steps of latent-feedback training per mode',
  warmup: 'linear warmup steps',
  pcaK: 'k principal directions of the input embeddings for the PCA head',
  tau: 'capacity level: supervise the latent only where base accuracy <= tau',
  latentWeight: 'weight of the latent auxiliary loss',
  contextLevel:
    'modes with the context-level loss: aligned (norm-matched, pca; raw h stays plain), all (raw too), off',
  evalExamples: 'held-out examples',
  seeds: 'seeds: each trains its own base model and every mode (init and data order)',
  logEvery: 'log one metrics line every n steps',
  checkpointEvery: 'checkpoint every n steps',
};

/** `rewardkit lab gap`: the GAP toy — raw, norm-matched and PCA-aligned latent feedback. */
export function registerLabGapCommand(lab: Command, state: CommandState): void {
  const command = lab
    .command('gap')
    .description(
      'GAP toy: final hidden states fed back as "vision tokens" — raw h, norm-matched h, PCA-aligned head, against no latent',
    );
  addLabOptions(command, GAP_DEFAULTS, HELP)
    .option(
      '-o, --out <dir>',
      'output folder: metrics.jsonl, summary.json, report.html, runs/ (checkpoints)',
      'lab-runs/gap',
    )
    .option('--no-progress', 'no progress bar')
    .addHelpText(
      'after',
      `
Task: prompt "a b c ?", latent z = (a + b) mod 10, answer y = (z + c) mod 10. A pre-norm base model
learns the text chain; then, per mode, the final hidden state at "?" is fed back in place of z and
the model trains on the answer; with --context-level aligned (the default) the aligned modes also
train the latent's distance to z's embedding on examples the base model fails, and raw h does not.
The no-latent control (none) feeds back nothing: same model and steps, the answer alone.
Rerunning with the same --out resumes.
One verdict line per claim on stdout: held, not held, inconclusive (its 95% interval over seeds
spans 0) or too small (below the documented minimum, or too few seeds), with the reason.`,
    )
    .action(async (flags: { out: string; progress: boolean }) => {
      const options = parseLabConfig(gapOptionsSchema, labOptions(command, GAP_DEFAULTS));
      const lab = await loadLab();
      await lab.loadTf();
      const out = resolve(flags.out);
      const progress = labProgress('gap', flags.progress);
      let report: ReturnType<typeof lab.runGapExperiment>;
      try {
        report = lab.runGapExperiment(options, out, (done, total) => progress.update(done, total));
      } finally {
        progress.stop();
      }
      await lab.writeLabReport(out, report);
      for (const verdict of report.verdicts) process.stdout.write(`${verdictLine(verdict)}\n`);
      process.stderr.write(`rewardkit lab gap: report ${out}/report.html\n`);
      state.exitCode = EXIT.ok;
    });
}
