import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { capacitySelection, pcaBasis, spanResidual } from './gap-alignment.js';
import { feedbackLatent } from './gap-experiment.js';
import { GAP_DEFAULTS, GAP_MODES, type GapContextLevel, usesContextLoss } from './gap-options.js';
import { seededNormal } from './seeded-normal.js';
import { loadTf } from './tf-runtime.js';

beforeAll(async () => {
  await loadTf();
});

const matrix = (rows: number, cols: number, seed: number, std = 1): number[][] => {
  const flat = seededNormal(rows * cols, std, seed);
  return Array.from({ length: rows }, (_, i) => Array.from(flat.subarray(i * cols, (i + 1) * cols)));
};

describe('GAP alignment', () => {
  test('the PCA basis is orthonormal', () => {
    const { basis } = pcaBasis(matrix(20, 6, 1), 3);
    for (const [i, a] of basis.entries())
      for (const [j, b] of basis.entries())
        expect(a.reduce((s, x, k) => s + x * (b[k] as number), 0)).toBeCloseTo(i === j ? 1 : 0, 9);
  });

  test('the PCA head output lies in span(P_k) + mu (residual < 1e-6)', () => {
    const embeddings = matrix(11, 16, 2, 0.02);
    const { basis, mu } = pcaBasis(embeddings, 4);
    const v = tf.tidy(() =>
      feedbackLatent('pca', tf.tensor2d(matrix(5, 16, 3, 30)), {
        embeddingNorm: 1,
        basis: tf.tensor2d(basis),
        mu: tf.tensor1d(mu),
        f: tf.tensor2d(matrix(16, 4, 4, 0.5)),
      }).arraySync(),
    ) as number[][];
    for (const row of v) expect(spanResidual(row, basis, mu)).toBeLessThan(1e-6);
  });

  test('the norm-matched feedback sits within ±10% of the input-embedding norm, raw h far above it', () => {
    const embeddings = matrix(11, 16, 5, 0.02);
    const norm = embeddings.reduce((s, r) => s + Math.hypot(...r), 0) / embeddings.length;
    const h = tf.tensor2d(matrix(5, 16, 6, 3));
    const ratios = (mode: 'raw' | 'norm-matched') =>
      tf.tidy(() =>
        (feedbackLatent(mode, h, { embeddingNorm: norm }).arraySync() as number[][]).map(
          (r) => Math.hypot(...r) / norm,
        ),
      );
    for (const r of ratios('norm-matched')) expect(Math.abs(r - 1)).toBeLessThan(0.1);
    for (const r of ratios('raw')) expect(r).toBeGreaterThan(10);
    h.dispose();
  });

  test('the no-latent control feeds back zeros: nothing of h reaches the model', () => {
    const h = tf.tensor2d(matrix(5, 16, 7, 3));
    const fed = tf.tidy(() => feedbackLatent('none', h, { embeddingNorm: 1 }).arraySync()) as number[][];
    expect(fed).toEqual(Array.from({ length: 5 }, () => Array(16).fill(0)));
    h.dispose();
  });

  test('the context-level loss: aligned modes only by default, so raw h is the plain baseline', () => {
    const on = (level: GapContextLevel) => GAP_MODES.filter((m) => usesContextLoss(m, level));
    expect(on('aligned')).toEqual(['norm-matched', 'pca']);
    expect(on('all')).toEqual(['raw', 'norm-matched', 'pca']);
    expect(on('off')).toEqual([]);
    expect(GAP_DEFAULTS.contextLevel).toBe('aligned');
  });

  test('capacity level: accuracies [0.9, 0.2, 0.5] with tau = 0.5 supervise examples 2 and 3', () => {
    expect(capacitySelection([0.9, 0.2, 0.5], 0.5)).toEqual([false, true, true]);
  });
});
