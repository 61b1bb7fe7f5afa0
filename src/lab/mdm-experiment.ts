import { join } from 'node:path';
import { createRng } from '../core/index.js';
import { belowMinimum } from './lab-minimum.js';
import type { Params } from './layers.js';
import { autoregressiveBatch, greedyExactMatch } from './mdm-autoregressive.js';
import {
  drawTimesteps,
  type MaskedBatch,
  MDM_METHODS,
  type MdmMethodName,
  type MdmRunName,
  maskedBatch,
  rowsPerExample,
} from './mdm-batch.js';
import { exactMatch, mdmLoss } from './mdm-model.js';
import { MDM_MINIMUM, type MdmOptions } from './mdm-options.js';
import { MDM_VOCAB, type MdmExample, mdmExample } from './mdm-tasks.js';
import {
  estimatePPotsProfile,
  measureTotalVariance,
  measureVariance,
  type VarianceMeasure,
} from './mdm-variance.js';
import { type MdmMethodResult, mdmVerdicts } from './mdm-verdicts.js';
import { type ModelConfig, modelConfigSchema } from './model-config.js';
import type { GridDensity } from './p-pots.js';
import type { LabReport } from './report.js';
import { type RunResult, trainRun } from './training-run.js';
import { initParams } from './transformer.js';

export const MDM_CLAIM =
  'P-POTS and MIRROR reduce the variance of masked-diffusion training (masking pattern A and masking rate B), which raises final accuracy and brings its run-to-run spread toward autoregressive levels (data variance C alone); every comparison at equal masked rows per step and equal steps.';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const std = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));

/**
 * The masked-diffusion comparison: a standard-trained reference model gives P-POTS its profile
 * and the fixed point for the variance measurement; then every method trains from scratch for
 * each seed and is scored by exact match under the denoising sampler. Resumable in `dir`.
 */
export function runMdmExperiment(
  o: MdmOptions,
  dir: string,
  onProgress?: (done: number, total: number) => void,
): LabReport {
  const first = mdmExample(o.task, o.digits, createRng(0));
  const model = modelConfigSchema.parse({
    vocab: MDM_VOCAB.length,
    width: o.width,
    heads: o.heads,
    depth: o.depth,
    seqLen: first.prompt.length + first.response.length,
    norm: 'pre',
    causal: false,
  });
  const examples = (seed: number, n: number): MdmExample[] => {
    const rng = createRng(seed);
    return Array.from({ length: n }, () => mdmExample(o.task, o.digits, rng));
  };
  const evalSet = examples(987_654, o.evalExamples);
  // `ar`: the same transformer, causal, trained next-token on the same examples.
  const causal: ModelConfig = { ...model, causal: true };
  const configOf = (run: MdmRunName) => (run === 'ar' ? causal : model);
  const masked = o.methods.filter((m): m is MdmMethodName => m !== 'ar');
  const withAr = o.methods.includes('ar');
  const total = o.varianceSteps * (withAr ? 2 : 1) + o.methods.length * o.seeds.length * o.steps;
  let done = 0;
  const progress = (n: number) => {
    done += n;
    onProgress?.(done, total);
  };
  const train = (seed: number, steps: number) => ({
    lr: o.lr,
    steps,
    warmup: Math.min(o.warmup, steps - 1),
    batch: o.batch,
    beta1: 0.9,
    beta2: 0.95,
    weightDecay: 0.1,
    clip: 1,
    seed,
  });
  let ppots: { density: GridDensity; cap: number } | undefined;
  // One step's batch of `run`: `batch` examples, then their masks (or the next-token rows).
  const drawBatch = (run: MdmRunName, rng: ReturnType<typeof createRng>): MaskedBatch => {
    const batch = Array.from({ length: o.batch }, () => mdmExample(o.task, o.digits, rng));
    if (run === 'ar') return autoregressiveBatch(batch);
    const timesteps = drawTimesteps(MDM_METHODS[run], o.batch, rng, ppots);
    return maskedBatch(batch, timesteps, MDM_METHODS[run], rng);
  };
  const stepLoss = (run: MdmRunName, seed: number) => (params: Params, step: number) =>
    mdmLoss(params, configOf(run), drawBatch(run, createRng(seed * 1_000_003 + step)));
  // Per seed, the gradient's total variance over fresh batches (A + B + C; `ar`: C).
  const totalVariance = (params: Params, run: MdmRunName) =>
    o.seeds.map((seed) => {
      const rng = createRng(779_000 + seed);
      return measureTotalVariance(
        params,
        configOf(run),
        () => drawBatch(run, rng),
        o.varianceDraws * o.varianceMasks,
      );
    });
  const runs = join(dir, 'runs');
  const reference = <E>(run: 'standard' | 'ar', evaluate: (params: Params) => E) => ({
    // The seeds (and, for standard, the methods) are in the id: the cached evaluation holds one
    // variance measurement per method and seed.
    id:
      run === 'ar'
        ? `reference-ar-s${o.seeds.join('_')}`
        : `reference-${masked.join('_')}-s${o.seeds.join('_')}`,
    train: train(12_345, Math.max(1, o.varianceSteps)),
    init: () => initParams(configOf(run), 12_345),
    loss: stepLoss(run, 12_345),
    logEvery: o.logEvery,
    checkpointEvery: o.checkpointEvery,
    spikeFactor: 10,
    onProgress: progress,
    evaluate,
  });

  // The reference model: standard training, then P-POTS' profile and the variance measurement at it.
  const referenceRun = trainRun(
    reference('standard', (params) => {
      const profile = estimatePPotsProfile(params, model, examples(555, o.ppotsExamples), {
        gridSize: o.ppotsGrid,
        masks: o.ppotsMasks,
        rng: createRng(556),
      });
      const density = { density: profile.density, cap: o.weightCap };
      ppots = density;
      // One fixed batch and mask stream per seed, so the variance claim is paired by seed too;
      // the reference model is one, which the verdict's metric says.
      const variance = Object.fromEntries(
        masked.map((m) => [
          m,
          o.seeds.map((seed) =>
            measureVariance(params, model, examples(777_000 + seed, o.batch), MDM_METHODS[m], {
              draws: o.varianceDraws,
              masks: o.varianceMasks,
              rng: createRng(778_000 + seed),
              ppots: density,
            }),
          ),
        ]),
      );
      const totals = Object.fromEntries(masked.map((m) => [m, totalVariance(params, m)]));
      return { profile, variance, totals };
    }),
    runs,
  );
  const referenceResult = referenceRun.evaluation;
  if (!referenceResult) throw new Error('the reference run diverged: lower --lr');
  ppots = { density: referenceResult.profile.density, cap: o.weightCap };
  // The autoregressive reference: the same steps, causal, next-token; its variance is C alone.
  const arReference = withAr
    ? trainRun(
        reference('ar', (params) => ({ totals: totalVariance(params, 'ar') })),
        runs,
      )
    : undefined;
  if (arReference && !arReference.evaluation)
    throw new Error('the autoregressive reference run diverged: lower --lr');
  const noMaskVariance: VarianceMeasure = { loss: { a: 0, b: 0 }, grad: { a: 0, b: 0 } };

  const perRun: RunResult<{ accuracy: number }>[] = [];
  const results: MdmMethodResult[] = o.methods.map((method) => {
    const accuracy = o.seeds.map((seed) => {
      const result = trainRun(
        {
          id: `${method}-s${seed}`,
          train: train(seed, o.steps),
          init: () => initParams(configOf(method), seed),
          loss: stepLoss(method, seed),
          evaluate: (params) => ({
            accuracy:
              method === 'ar'
                ? greedyExactMatch(params, causal, evalSet)
                : exactMatch(params, model, evalSet),
          }),
          logEvery: o.logEvery,
          checkpointEvery: o.checkpointEvery,
          spikeFactor: 10,
          onProgress: progress,
        },
        runs,
      );
      perRun.push(result);
      // A diverged run is data: NaN, so the verdicts over it say so rather than scoring it 0.
      return result.evaluation?.accuracy ?? Number.NaN;
    });
    return {
      method,
      variance:
        method === 'ar'
          ? o.seeds.map(() => noMaskVariance)
          : (referenceResult.variance[method] as VarianceMeasure[]),
      total_variance:
        method === 'ar'
          ? (arReference?.evaluation?.totals as number[])
          : (referenceResult.totals[method] as number[]),
      accuracy,
      accuracy_mean: mean(accuracy),
      accuracy_std: std(accuracy),
    };
  });
  const profile = referenceResult.profile;
  return {
    title: `Masked diffusion LM: variance reduction (${o.task}, ${o.digits} digits)`,
    claim: MDM_CLAIM,
    verdicts: mdmVerdicts(results, belowMinimum(o, MDM_MINIMUM)),
    charts: [
      {
        title: 'training loss (ELBO)',
        rows: perRun.flatMap((r) => r.metrics),
        x: 'step',
        y: 'loss',
        series: 'run',
        logY: true,
      },
      {
        title: 'P-POTS profile at the reference model: empirical sqrt(g² + v) and the EPR fit (same scale)',
        rows: profile.grid.flatMap((t, i) => {
          const emp = Math.sqrt((profile.g[i] as number) ** 2 + (profile.v[i] as number));
          const scale =
            profile.fitted.reduce((s, x) => s + x, 0) /
            profile.grid.reduce(
              (s, _, k) => s + Math.sqrt((profile.g[k] as number) ** 2 + (profile.v[k] as number)),
              0,
            );
          return [
            { t, value: emp, curve: 'empirical' },
            { t, value: (profile.fitted[i] as number) / scale, curve: 'EPR fit' },
          ];
        }),
        x: 't',
        y: 'value',
        series: 'curve',
      },
    ],
    tables: [
      {
        title:
          "variance on a fixed batch (A: over mask draws, B: over t; mean over the seeds' batches) and accuracy over seeds",
        columns: [
          'method',
          'rows/step',
          'loss A',
          'loss B',
          'grad A',
          'grad B',
          'grad total (fresh batches)',
          'exact match (mean)',
          'std',
          'per seed',
        ],
        rows: results.map((r) => [
          r.method,
          r.method === 'ar' ? o.batch : o.batch * rowsPerExample(MDM_METHODS[r.method]),
          mean(r.variance.map((v) => v.loss.a)),
          mean(r.variance.map((v) => v.loss.b)),
          mean(r.variance.map((v) => v.grad.a)),
          mean(r.variance.map((v) => v.grad.b)),
          mean(r.total_variance),
          r.accuracy_mean,
          r.accuracy_std,
          r.accuracy.map((a) => a.toFixed(3)).join(' '),
        ]),
      },
    ],
    metrics: [...referenceRun.metrics, ...(arReference?.metrics ?? []), ...perRun.flatMap((r) => r.metrics)],
    summary: {
      options: o,
      ppots: { grid: profile.grid, g: profile.g, v: profile.v, fitted: profile.fitted, kl: profile.kl },
      methods: results,
    },
  };
}
