import { describe, expect, test } from 'vitest';
import { createRng } from '../core/index.js';
import { autoregressiveBatch } from './mdm-autoregressive.js';
import { type MaskedBatch, MDM_METHOD_NAMES, MDM_METHODS, maskedBatch, rowsPerExample } from './mdm-batch.js';
import { maskProbability, mirrorVarianceRatio } from './mdm-masking.js';
import { MASK_ID, type MdmExample, mdmExample } from './mdm-tasks.js';
import { measureTotalVariance } from './mdm-variance.js';
import { MDM_BASELINES } from './mdm-verdicts.js';
import { modelConfigSchema } from './model-config.js';
import { initParams } from './transformer.js';

const examples = (n: number, seed: number): MdmExample[] => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => mdmExample('sorting', 3, rng));
};
const fixedT = (n: number, t: number) => ({ t: Array(n).fill(t), weight: Array(n).fill(1) });
const maskedAt = (b: MaskedBatch, row: number) =>
  Array.from(b.inputs.slice(row * b.length, (row + 1) * b.length), (x) => x === MASK_ID);
// With every per-token loss 1, Σ weight is the batch's ELBO estimate: its variance is the masks' alone.
const estimate = (b: MaskedBatch) => b.weights.reduce((s, w) => s + w, 0);
const variance = (xs: number[]) => {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length;
};

describe('compute-matched batches', () => {
  test('each method is compared with a baseline of the same masked rows per step', () => {
    const batch = examples(8, 1);
    const rng = createRng(2);
    for (const name of MDM_METHOD_NAMES) {
      const rows = maskedBatch(batch, fixedT(8, 0.3), MDM_METHODS[name], rng).rows;
      expect(rows).toBe(8 * rowsPerExample(MDM_METHODS[name]));
      const base = MDM_BASELINES[name];
      if (base) expect(maskedBatch(batch, fixedT(8, 0.3), MDM_METHODS[base], rng).rows).toBe(rows);
    }
    expect(rowsPerExample(MDM_METHODS.mirror)).toBe(2);
    expect(rowsPerExample(MDM_METHODS.pair)).toBe(2);
    expect(rowsPerExample(MDM_METHODS.standard)).toBe(1);
    expect(autoregressiveBatch(batch).rows).toBe(8);
  });

  test('MIRROR rows are disjoint for t ≤ 1/2; independent-pair rows overlap at the rate p²', () => {
    const rng = createRng(3);
    for (const t of [0.1, 0.3, 0.499]) {
      const b = maskedBatch(examples(64, 4), fixedT(64, t), MDM_METHODS.mirror, rng);
      for (let e = 0; e < 64; e++) {
        const [m1, m2] = [maskedAt(b, 2 * e), maskedAt(b, 2 * e + 1)];
        expect(m1.some((m, i) => m && m2[i])).toBe(false);
      }
    }
    // Independent masks at p ≈ 0.4: P(both) = p² and P(first) = p, so the pair is uncorrelated.
    const t = 0.4;
    const p = maskProbability(t);
    const b = maskedBatch(examples(2000, 5), fixedT(2000, t), MDM_METHODS.pair, rng);
    const respStart = 6;
    let [both, first, second, n] = [0, 0, 0, 0];
    for (let e = 0; e < 2000; e++) {
      const [m1, m2] = [maskedAt(b, 2 * e), maskedAt(b, 2 * e + 1)];
      for (let i = respStart; i < b.length; i++) {
        n++;
        if (m1[i]) first++;
        if (m2[i]) second++;
        if (m1[i] && m2[i]) both++;
      }
    }
    // 12,000 tokens: a standard error under 0.005, so 0.02 is four of them (MIRROR would give both = 0).
    expect(Math.abs(first / n - p)).toBeLessThan(0.02);
    expect(Math.abs(second / n - p)).toBeLessThan(0.02);
    expect(Math.abs(both / n - p * p)).toBeLessThan(0.02);
  });

  test('pair weights: each masked token 1/(|R| p B · 2), as MIRROR', () => {
    const batch = examples(4, 6);
    const t = 0.3;
    const w = 1 / (6 * maskProbability(t) * 4 * 2);
    for (const name of ['pair', 'mirror'] as const)
      for (const x of maskedBatch(batch, fixedT(4, t), MDM_METHODS[name], createRng(7)).weights)
        if (x > 0) expect(x).toBeCloseTo(w, 6);
  });

  test('the notes’ vector through the batch: Var ratio 0.333 at t = 0.25 for MIRROR, 0.5 for an independent pair', () => {
    const t = 0.25;
    const ex = examples(1, 8);
    const rng = createRng(9);
    const draws = (name: 'standard' | 'mirror' | 'pair') =>
      Array.from({ length: 30_000 }, () => estimate(maskedBatch(ex, fixedT(1, t), MDM_METHODS[name], rng)));
    const single = variance(draws('standard'));
    expect(variance(draws('mirror')) / single).toBeCloseTo(mirrorVarianceRatio(maskProbability(t)), 1);
    expect(variance(draws('mirror')) / single).toBeCloseTo(0.333, 1);
    expect(variance(draws('pair')) / single).toBeCloseTo(0.5, 1);
  });
});

describe('the autoregressive baseline', () => {
  test('next-token targets, loss only where a response token is predicted, weights summing to 1', () => {
    const batch = examples(3, 10);
    const b = autoregressiveBatch(batch);
    const promptLen = (batch[0] as MdmExample).prompt.length;
    batch.forEach((ex, r) => {
      const tokens = [...ex.prompt, ...ex.response];
      const row = (x: ArrayLike<number>) => Array.from(x).slice(r * b.length, (r + 1) * b.length);
      expect(row(b.inputs)).toEqual(tokens);
      expect(row(b.targets).slice(0, -1)).toEqual(tokens.slice(1));
      row(b.weights).forEach((w, i) => {
        expect(w > 0).toBe(i >= promptLen - 1 && i < b.length - 1);
      });
    });
    expect(estimate(b)).toBeCloseTo(1, 6);
  });

  test('total variance: zero for one repeated autoregressive batch (no mask to draw), positive for masks', () => {
    const config = modelConfigSchema.parse({ vocab: 15, width: 8, heads: 2, depth: 1, seqLen: 12 });
    const params = initParams(config, 1);
    const batch = examples(4, 11);
    expect(measureTotalVariance(params, config, () => autoregressiveBatch(batch), 3)).toBeLessThan(1e-12);
    const rng = createRng(12);
    const bidirectional = { ...config, causal: false };
    expect(
      measureTotalVariance(
        params,
        bidirectional,
        () => maskedBatch(batch, fixedT(4, 0.5), MDM_METHODS.standard, rng),
        3,
      ),
    ).toBeGreaterThan(0);
  });
});
