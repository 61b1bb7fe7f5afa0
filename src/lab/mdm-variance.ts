import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../core/index.js';
import type { Params } from './layers.js';
import { drawTimesteps, type MaskedBatch, type MdmMethod, maskedBatch } from './mdm-batch.js';
import { mdmLoss } from './mdm-model.js';
import type { MdmExample } from './mdm-tasks.js';
import type { ModelConfig } from './model-config.js';
import { eprProfile, fitEpr, type GridDensity, gridDensity, pPotsGrid } from './p-pots.js';

/**
 * The law of total variance over a nested sample `values[draw][mask]`: A, the mean within-t
 * variance (masking pattern), and B, the variance of the per-t means (masking rate).
 */
export function varianceComponents(values: number[][]): { a: number; b: number } {
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const within = values.map((row) => {
    const m = mean(row);
    return mean(row.map((x) => (x - m) ** 2));
  });
  const means = values.map(mean);
  const m = mean(means);
  return { a: mean(within), b: mean(means.map((x) => (x - m) ** 2)) };
}

/** Trace form for gradient vectors: A = mean over t of E‖g − ḡ_t‖², B = E‖ḡ_t − ḡ‖². */
export function vectorVarianceComponents(values: Float32Array[][]): { a: number; b: number } {
  const dim = values[0]?.[0]?.length ?? 0;
  const meanOf = (rows: Float32Array[]) => {
    const out = new Float64Array(dim);
    for (const r of rows)
      for (let i = 0; i < dim; i++) out[i] = (out[i] as number) + (r[i] as number) / rows.length;
    return out;
  };
  const dist2 = (x: ArrayLike<number>, y: ArrayLike<number>) => {
    let s = 0;
    for (let i = 0; i < dim; i++) s += ((x[i] as number) - (y[i] as number)) ** 2;
    return s;
  };
  const means = values.map(meanOf);
  const overall = meanOf(means.map((m) => Float32Array.from(m)));
  const a =
    values.reduce(
      (s, rows, k) => s + rows.reduce((t, r) => t + dist2(r, means[k] as Float64Array), 0) / rows.length,
      0,
    ) / values.length;
  const b = means.reduce((s, m) => s + dist2(m, overall), 0) / means.length;
  return { a, b };
}

export interface VarianceMeasure {
  loss: { a: number; b: number };
  grad: { a: number; b: number };
}

/**
 * Loss and gradient variance of one method on a fixed batch: `draws` t-draws (component B), each
 * with `masks` mask draws (component A), at fixed parameters.
 */
export function measureVariance(
  params: Params,
  config: ModelConfig,
  examples: readonly MdmExample[],
  method: MdmMethod,
  o: { draws: number; masks: number; rng: Rng; ppots?: { density: GridDensity; cap: number } },
): VarianceMeasure {
  const losses: number[][] = [];
  const grads: Float32Array[][] = [];
  for (let k = 0; k < o.draws; k++) {
    const timesteps = drawTimesteps(method, examples.length, o.rng, o.ppots);
    losses.push([]);
    grads.push([]);
    for (let j = 0; j < o.masks; j++) {
      const { loss, grad } = lossAndGradient(params, config, maskedBatch(examples, timesteps, method, o.rng));
      losses[k]?.push(loss);
      grads[k]?.push(grad);
    }
  }
  return { loss: varianceComponents(losses), grad: vectorVarianceComponents(grads) };
}

/** The batch loss and its gradient, flattened over the parameters in their fixed order. */
function lossAndGradient(
  params: Params,
  config: ModelConfig,
  batch: MaskedBatch,
): { loss: number; grad: Float32Array } {
  const names = Object.keys(params);
  const flat = tf.tidy(() => {
    const { value, grads } = tf.valueAndGrads((...xs: tf.Tensor[]) =>
      mdmLoss(Object.fromEntries(names.map((n, i) => [n, xs[i] as tf.Tensor])), config, batch),
    )(names.map((n) => params[n] as tf.Tensor));
    return [value, tf.concat(grads.map((t) => t.flatten()))];
  });
  const out = {
    loss: (flat[0] as tf.Tensor).dataSync()[0] as number,
    grad: (flat[1] as tf.Tensor).dataSync() as Float32Array,
  };
  tf.dispose(flat);
  return out;
}

/**
 * The gradient's total variance (trace form) over `draws` independent batches from `draw`: fresh
 * examples, and for a masked method fresh t and masks too, so A + B + C for masked diffusion and
 * C alone for the autoregressive baseline, whose loss has no mask or t to draw.
 */
export function measureTotalVariance(
  params: Params,
  config: ModelConfig,
  draw: () => MaskedBatch,
  draws: number,
): number {
  const grads = Array.from({ length: draws }, () => lossAndGradient(params, config, draw()).grad);
  return vectorVarianceComponents([grads]).a;
}

/**
 * P-POTS' profile before training: on the grid linspace(1/N, 1 − 1/N, N − 1), the mean g(t) and
 * variance v(t) of the per-sample ELBO loss over examples × mask draws, then the EPR fit of
 * sqrt(g² + v) by KL and its grid density for inverse-CDF sampling.
 */
export function estimatePPotsProfile(
  params: Params,
  config: ModelConfig,
  examples: readonly MdmExample[],
  o: { gridSize: number; masks: number; rng: Rng },
): { grid: number[]; g: number[]; v: number[]; fitted: number[]; density: GridDensity; kl: number } {
  const grid = pPotsGrid(o.gridSize);
  const g: number[] = [];
  const v: number[] = [];
  const plain: MdmMethod = { timesteps: 'uniform', masks: 'single', isad: false };
  for (const t of grid) {
    const perSample: number[] = [];
    for (let j = 0; j < o.masks; j++)
      for (const ex of examples) {
        const batch = maskedBatch([ex], { t: [t], weight: [1] }, plain, o.rng);
        perSample.push(tf.tidy(() => mdmLoss(params, config, batch).dataSync()[0] as number));
      }
    const mean = perSample.reduce((s, x) => s + x, 0) / perSample.length;
    g.push(mean);
    v.push(perSample.reduce((s, x) => s + (x - mean) ** 2, 0) / perSample.length);
  }
  const empirical = grid.map((_, i) => Math.sqrt((g[i] as number) ** 2 + (v[i] as number)));
  const fit = fitEpr(grid, empirical);
  const fitted = grid.map((t) => eprProfile(fit.params, t));
  return { grid, g, v, fitted, density: gridDensity(grid, fitted), kl: fit.kl };
}
