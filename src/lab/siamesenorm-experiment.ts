import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { charCorpus, grammarText, lmBatch } from './char-corpus.js';
import { belowMinimum } from './lab-minimum.js';
import type { Params } from './layers.js';
import { lmLoss } from './lm-loss.js';
import { modelConfigSchema } from './model-config.js';
import type { LabReport } from './report.js';
import { SIAMESENORM_MINIMUM, type SiameseNormOptions } from './siamesenorm-options.js';
import { instability, NORM_NAMES, type SiameseNormRun, stabilityCell } from './siamesenorm-run.js';
import { siameseNormVerdicts } from './siamesenorm-verdicts.js';
import { type RunResult, trainRun } from './training-run.js';
import { initParams } from './transformer.js';

export const SIAMESENORM_CLAIM =
  'SiameseNorm (two residual streams sharing every sublayer) trains stably at high learning rate where Post-Norm spikes, stalls or diverges, more so the deeper the model, and at the highest learning rate where Pre-Norm is still stable reaches a validation loss at or below Pre-Norm.';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The SiameseNorm sweep: one character-level LM per (depth, lr, seed, norm placement) on the
 * grammar corpus, resumable in `dir`. Returns the report to write.
 */
export function runSiameseNormExperiment(
  o: SiameseNormOptions,
  dir: string,
  onProgress?: (steps: number, total: number) => void,
): LabReport {
  const corpus = charCorpus(grammarText(o.corpusChars, 1));
  const configs = o.depths.flatMap((depth) =>
    o.lrs.flatMap((lr) => o.seeds.flatMap((seed) => o.norms.map((norm) => ({ depth, lr, seed, norm })))),
  );
  const total = configs.length * o.steps;
  let done = 0;
  const valBatches = Array.from({ length: o.evalBatches }, (_, i) =>
    lmBatch(corpus.validation, { batch: o.batch, seqLen: o.seqLen, seed: 7, step: i }),
  );
  const runs: SiameseNormRun[] = [];
  const results: RunResult<{ val_loss: number }>[] = [];
  for (const c of configs) {
    const model = modelConfigSchema.parse({
      vocab: corpus.chars.length,
      width: o.width,
      heads: o.heads,
      depth: c.depth,
      seqLen: o.seqLen,
      norm: c.norm,
    });
    const shape = [o.batch, o.seqLen];
    const id = `${c.norm}-d${c.depth}-lr${c.lr}-s${c.seed}`;
    const result = trainRun(
      {
        id,
        train: {
          lr: c.lr,
          steps: o.steps,
          warmup: o.warmup,
          batch: o.batch,
          beta1: 0.9,
          beta2: 0.95,
          weightDecay: 0.1,
          clip: 1,
          seed: c.seed,
        },
        init: () => initParams(model, c.seed),
        loss: (params: Params, step: number) => {
          const b = lmBatch(corpus.train, { batch: o.batch, seqLen: o.seqLen, seed: c.seed, step });
          return lmLoss(
            params,
            model,
            tf.tensor(b.inputs, shape, 'int32'),
            tf.tensor(b.targets, shape, 'int32'),
          );
        },
        evaluate: (params: Params) => ({
          val_loss: mean(
            valBatches.map((b) =>
              tf.tidy(
                () =>
                  lmLoss(
                    params,
                    model,
                    tf.tensor(b.inputs, shape, 'int32'),
                    tf.tensor(b.targets, shape, 'int32'),
                  ).dataSync()[0] as number,
              ),
            ),
          ),
        }),
        logEvery: o.logEvery,
        checkpointEvery: o.checkpointEvery,
        spikeFactor: o.spikeFactor,
        onProgress: (n) => {
          done += n;
          onProgress?.(done, total);
        },
      },
      join(dir, 'runs'),
    );
    results.push(result);
    const diverged = result.divergence.events.find((e) => e.kind === 'nonfinite');
    runs.push({
      run: id,
      ...c,
      // Step 0 is always logged: its loss is the untrained model's.
      initial_loss: result.metrics[0]?.loss ?? Number.NaN,
      val_loss: result.evaluation?.val_loss ?? null,
      diverged_at: diverged?.step ?? null,
      spikes: result.divergence.events.filter((e) => e.kind === 'spike').map((e) => e.step),
    });
  }
  const metrics = results.flatMap((r) => r.metrics);
  const verdicts = siameseNormVerdicts(runs, belowMinimum(o, SIAMESENORM_MINIMUM));
  return {
    title: 'SiameseNorm: norm placement sweep (character-level LM)',
    claim: SIAMESENORM_CLAIM,
    verdicts,
    charts: o.depths.flatMap((depth) =>
      o.lrs.map((lr) => ({
        title: `training loss, depth ${depth}, lr ${lr}`,
        rows: metrics.filter((m) => runs.find((r) => r.run === m.run && r.depth === depth && r.lr === lr)),
        x: 'step',
        y: 'loss',
        series: 'run',
        logY: true,
      })),
    ),
    tables: [
      {
        title: 'stable runs over seeds (neither diverged nor stalled), per depth and lr',
        columns: ['depth', 'lr', ...o.norms.map((n) => NORM_NAMES[n])],
        rows: o.depths.flatMap((depth) =>
          o.lrs.map((lr) => [
            depth,
            lr,
            ...o.norms.map((norm) =>
              stabilityCell(runs.filter((r) => r.norm === norm && r.depth === depth && r.lr === lr)),
            ),
          ]),
        ),
      },
      {
        title: 'runs',
        columns: [
          'norm',
          'depth',
          'lr',
          'seed',
          'initial loss',
          'validation loss',
          'stable',
          'diverged at step',
          'spikes (steps)',
        ],
        rows: runs.map((r) => [
          NORM_NAMES[r.norm],
          r.depth,
          r.lr,
          r.seed,
          r.initial_loss,
          r.val_loss,
          instability(r) === null ? 'yes' : `no: ${instability(r)}`,
          r.diverged_at,
          r.spikes.join(' ') || '—',
        ]),
      },
    ],
    metrics,
    summary: { options: o, runs },
  };
}
