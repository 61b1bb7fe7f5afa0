import { describe, expect, test } from 'vitest';
import { createRng } from '../core/index.js';
import { drawTimesteps, MDM_METHODS, maskedBatch } from './mdm-batch.js';
import { isadProbability, maskProbability, mirrorMasks, mirrorVarianceRatio } from './mdm-masking.js';
import { DELIMITER_ID, MASK_ID, MDM_VOCAB, mdmExample } from './mdm-tasks.js';
import { varianceComponents } from './mdm-variance.js';
import {
  eprProfile,
  fitEpr,
  gridDensity,
  importanceVariance,
  optimalTimestepDensity,
  pPotsGrid,
  samplePPots,
} from './p-pots.js';

describe('P-POTS', () => {
  test('g = t, v = 0 gives p* = 2t', () => {
    const p = optimalTimestepDensity(
      (t) => t,
      () => 0,
    );
    for (const t of [0.1, 0.25, 0.5, 0.9]) expect(p(t)).toBeCloseTo(2 * t, 6);
  });

  test('the weighted estimator under p* has variance 0, against 1/12 under uniform t', () => {
    const loss = (t: number) => t;
    const p = optimalTimestepDensity(loss, () => 0);
    expect(Math.abs(importanceVariance(loss, p))).toBeLessThan(1e-9);
    expect(importanceVariance(loss, () => 1)).toBeCloseTo(1 / 12, 6);
  });

  test('the grid is linspace(1/N, 1 - 1/N, N - 1)', () => {
    expect(pPotsGrid(5)).toEqual([0.2, 0.4, 0.6, 0.8]);
  });

  test('the EPR fit recovers a profile of its own family', () => {
    const grid = pPotsGrid(20);
    const truth = { a: 2, r: 1.5, b: 0.5, q: 2, A: 0.3, kappa: 0.5, m: 1 };
    const { kl } = fitEpr(
      grid,
      grid.map((t) => eprProfile(truth, t)),
    );
    expect(kl).toBeLessThan(1e-3);
  });

  test('inverse-CDF draws follow the grid density and carry capped weights 1/p(t)', () => {
    const grid = pPotsGrid(10);
    const density = gridDensity(
      grid,
      grid.map((t) => t),
    );
    const rng = createRng(1);
    const draws = Array.from({ length: 20_000 }, () => samplePPots(density, rng.next(), 3));
    const meanT = draws.reduce((s, d) => s + d.t, 0) / draws.length;
    // Cells centred on 0.1..0.9 with mass ∝ t: E[t] = Σ t² / Σ t = 2.85 / 4.5.
    expect(meanT).toBeCloseTo(2.85 / 4.5, 2);
    expect(Math.max(...draws.map((d) => d.weight))).toBe(3);
    const high = draws.find((d) => d.t > 0.85);
    expect(high?.weight).toBeCloseTo(1 / ((0.9 / 4.5) * 10), 6);
  });
});

describe('MIRROR', () => {
  test('variance ratio (1 − 2t)/(2(1 − t)) is 0.333 at t = 0.25, against 0.5 for an independent pair', () => {
    expect(mirrorVarianceRatio(0.25)).toBeCloseTo(0.333, 3);
  });

  test('with fixed per-token losses, a Monte Carlo estimate matches the ratio', () => {
    const t = 0.25;
    const tokens = 8;
    const rng = createRng(2);
    const single: number[] = [];
    const pair: number[] = [];
    for (let i = 0; i < 40_000; i++) {
      const u = Array.from({ length: tokens }, () => rng.next());
      const [m1, m2] = mirrorMasks(
        u,
        u.map(() => t),
      );
      const est = (m: boolean[]) => m.filter(Boolean).length / (tokens * t);
      single.push(est(m1));
      pair.push((est(m1) + est(m2)) / 2);
    }
    const variance = (xs: number[]) => {
      const m = xs.reduce((s, x) => s + x, 0) / xs.length;
      return xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length;
    };
    expect(variance(pair) / variance(single)).toBeCloseTo(mirrorVarianceRatio(t), 1);
  });

  test('for t ≤ 1/2 the two masks are disjoint', () => {
    const rng = createRng(3);
    for (const t of [0.05, 0.25, 0.5]) {
      const u = Array.from({ length: 1000 }, () => rng.next());
      const [m1, m2] = mirrorMasks(
        u,
        u.map(() => t),
      );
      expect(m1.some((m, i) => m && m2[i])).toBe(false);
    }
  });
});

describe('ISAD', () => {
  test.each([
    [0.1, 0.3, 1 / 0.3],
    [0.5, 0.7, 1 / 0.7],
    [0.8, 1, 1],
    [0.95, 1, 1],
  ])('t = %f: q = %f, weight %f', (t, q, weight) => {
    expect(isadProbability(t)).toBeCloseTo(q, 12);
    expect(1 / isadProbability(t)).toBeCloseTo(weight, 12);
  });

  test('the delimiter is masked with q and weighted 1/(|R| q); other tokens with p', () => {
    const ex = mdmExample('addition', 2, createRng(4));
    const t = 0.5;
    const batch = maskedBatch([ex], { t: [t], weight: [1] }, MDM_METHODS.isad, {
      next: () => 0.65,
      int: () => 0,
      shuffle: (x) => [...x],
    });
    const r = ex.response.length;
    const delimiterAt = ex.prompt.length + r - 1;
    // u = 0.65: above p ≈ 0.5 (not masked) but below q = 0.7 (masked) — only the delimiter.
    expect(batch.inputs[delimiterAt]).toBe(MASK_ID);
    expect(batch.weights[delimiterAt]).toBeCloseTo(1 / (r * 0.7), 6);
    expect(Array.from(batch.inputs.slice(ex.prompt.length, delimiterAt))).toEqual(ex.response.slice(0, -1));
    expect(maskProbability(t)).toBeCloseTo(0.5005, 12);
  });
});

describe('the ELBO batch', () => {
  test('prompt tokens are never masked and carry no loss', () => {
    const rng = createRng(5);
    const examples = Array.from({ length: 16 }, () => mdmExample('sorting', 3, rng));
    for (const name of ['standard', 'mirror', 'strats'] as const) {
      const method = MDM_METHODS[name];
      const batch = maskedBatch(examples, drawTimesteps(method, 16, rng), method, rng);
      const promptLen = (examples[0]?.prompt ?? []).length;
      for (let row = 0; row < batch.rows; row++)
        for (let i = 0; i < promptLen; i++) {
          expect(batch.inputs[row * batch.length + i]).not.toBe(MASK_ID);
          expect(batch.weights[row * batch.length + i]).toBe(0);
        }
    }
  });

  test('each masked token weighs 1/(|R| p B) (MIRROR: halved over the pair)', () => {
    const rng = createRng(6);
    const examples = Array.from({ length: 4 }, () => mdmExample('addition', 2, rng));
    const t = 0.3;
    const timesteps = { t: [t, t, t, t], weight: [1, 1, 1, 1] };
    const plain = maskedBatch(examples, timesteps, MDM_METHODS.standard, rng);
    const mirrored = maskedBatch(examples, timesteps, MDM_METHODS.mirror, rng);
    const r = examples[0]?.response.length as number;
    const w = 1 / (r * maskProbability(t) * 4);
    for (const x of plain.weights) if (x > 0) expect(x).toBeCloseTo(w, 6);
    for (const x of mirrored.weights) if (x > 0) expect(x).toBeCloseTo(w / 2, 6);
  });

  test('StraTS puts one t in each of the B strata', () => {
    const { t } = drawTimesteps(MDM_METHODS.strats, 8, createRng(7));
    expect(t.map((x) => Math.floor(x * 8)).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  test('tasks: addition and sorting', () => {
    const text = (ids: number[]) => ids.map((i) => MDM_VOCAB[i]).join('');
    const add = mdmExample('addition', 2, createRng(8));
    const [a, b] = text(add.prompt).slice(0, -1).split('+').map(Number);
    expect(text(add.response)).toBe(`${String((a as number) + (b as number)).padStart(3, '0')}#`);
    const sort = mdmExample('sorting', 2, createRng(9));
    expect(text(sort.response)).toBe(`${[...text(sort.prompt).slice(0, -1)].sort().join('')}#`);
    expect(add.response.at(-1)).toBe(DELIMITER_ID);
  });
});

test('variance components split total variance into A (within t) and B (between t)', () => {
  expect(
    varianceComponents([
      [1, 3],
      [5, 7],
    ]),
  ).toEqual({ a: 1, b: 4 });
});
