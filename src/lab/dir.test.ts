import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { runDirExperiment } from './dir-experiment.js';
import { bradleyTerryTensor, classifierCrossEntropyTensor, clubTensor } from './dir-loss.js';
import { bradleyTerryLoss, classifierCrossEntropy, clubEstimate, dirLoss } from './dir-objective.js';
import { DIR_DEFAULTS, type DirOptions } from './dir-options.js';
import { balancedPairs, biasedPairs, DIR_SEQ_LEN, END, PAD, type PreferencePair } from './dir-pairs.js';
import { type DirSeedResult, dirVerdicts } from './dir-verdicts.js';
import { CLUB_WORKED_VECTORS } from './test-utils/dir-worked-vectors.js';
import { loadTf } from './tf-runtime.js';

beforeAll(async () => {
  await loadTf();
});

const scalar = (t: tf.Tensor) => t.dataSync()[0] as number;
const logq = (rows: number[][]) => tf.log(tf.tensor2d(rows));
const labels = (a: number[]) => tf.tensor1d(a, 'int32');

// The notes' worked vectors (../shared/methods/rl.md, "DIR"), through the tensor losses the
// reward models train on, against the number versions of dir-objective.ts.
describe('DIR losses on tensors agree with the number versions', () => {
  test.each([[[2]], [[0]], [[2, 0]], [[-3, 0.5, 7]], [[60, -60]]])('Bradley–Terry of Δr = %j', (deltas) => {
    expect(scalar(bradleyTerryTensor(tf.tensor1d(deltas)))).toBeCloseTo(bradleyTerryLoss(deltas), 5);
  });

  test.each(CLUB_WORKED_VECTORS.map((v) => [...v]))('CLUB: %s', (_, rows, a, expected) => {
    const value = scalar(clubTensor(logq(rows), labels(a)));
    expect(value).toBeCloseTo(expected, 5);
    expect(value).toBeCloseTo(clubEstimate(rows, a), 5);
  });

  test("q's cross-entropy and the DIR loss (Δr = [2, 0], λ = 1 → 1.508650)", () => {
    const rows = [
      [0.9, 0.1],
      [0.1, 0.9],
    ];
    expect(scalar(classifierCrossEntropyTensor(logq(rows), labels([0, 1])))).toBeCloseTo(
      classifierCrossEntropy(rows, [0, 1]),
      6,
    );
    const loss = bradleyTerryTensor(tf.tensor1d([2, 0])).add(clubTensor(logq(rows), labels([0, 1])));
    expect(scalar(loss)).toBeCloseTo(1.50865, 5);
    expect(scalar(loss)).toBeCloseTo(dirLoss([2, 0], rows, [0, 1], 1), 5);
  });

  test("Î's gradient in z through a frozen q matches central differences of the number version", () => {
    const w = [
      [1.5, -0.5],
      [-1, 2],
    ];
    const a = [0, 1, 1];
    const z0 = [
      [0.3, -0.2],
      [-0.4, 0.5],
      [0.1, 0.9],
    ];
    const q = (z: number[][]) =>
      z.map((row) => {
        const logits = [0, 1].map((c) => row.reduce((s, v, k) => s + v * (w[k]?.[c] as number), 0));
        const m = Math.max(...logits);
        const e = logits.map((l) => Math.exp(l - m));
        return e.map((v) => v / ((e[0] as number) + (e[1] as number)));
      });
    const grad = tf
      .grad((z: tf.Tensor) => clubTensor(tf.logSoftmax(tf.matMul(z, tf.tensor2d(w))), labels(a)))(
        tf.tensor2d(z0),
      )
      .arraySync() as number[][];
    const h = 1e-4;
    for (const [i, row] of z0.entries())
      for (const k of row.keys()) {
        const at = (d: number) =>
          clubEstimate(q(z0.map((r, j) => r.map((v, l) => (j === i && l === k ? v + d : v)))), a);
        expect(grad[i]?.[k]).toBeCloseTo((at(h) - at(-h)) / (2 * h), 3);
      }
  });
});

describe('DIR pairs', () => {
  const rate = (pairs: PreferencePair[], key: 'length' | 'format') =>
    pairs.filter((p) => p[key] === 1).length / pairs.length;

  test('content decides the preference; the labels say which response is longer and more formatted', () => {
    for (const p of [
      ...biasedPairs(300, 1, { bias: 0.8, formatBias: 0.7, labelNoise: 0 }),
      ...balancedPairs(300, 2),
    ]) {
      expect(p.chosen.quality).toBeGreaterThan(p.rejected.quality);
      expect(p.length).toBe(p.chosen.length > p.rejected.length ? 1 : 0);
      expect(p.chosen.length).not.toBe(p.rejected.length);
      expect(p.format).toBe(p.chosen.markdown > p.rejected.markdown ? 1 : 0);
      for (const r of [p.chosen, p.rejected]) {
        expect(r.tokens).toHaveLength(DIR_SEQ_LEN);
        expect(r.tokens.at(-1)).toBe(END);
        expect(r.tokens.filter((t) => t !== PAD).length).toBe(r.length + 1);
      }
    }
  });

  test('seeded, and the measured bias and noise rates are the flags', () => {
    const o = { bias: 0.8, formatBias: 0.8, labelNoise: 0.2 };
    expect(biasedPairs(50, 3, o)).toEqual(biasedPairs(50, 3, o));
    expect(biasedPairs(50, 3, o)).not.toEqual(biasedPairs(50, 4, o));
    const pairs = biasedPairs(4000, 5, { bias: 0.8, formatBias: 0.6, labelNoise: 0.2 });
    expect(rate(pairs, 'length')).toBeCloseTo(0.8, 1);
    expect(rate(pairs, 'format')).toBeCloseTo(0.6, 1);
    const mislabeled = pairs.filter((p) => p.chosen.quality < p.rejected.quality).length / pairs.length;
    expect(mislabeled).toBeCloseTo(0.2, 1);
  });

  test('the balanced set is balanced: each label 1 in exactly half the pairs, also within each quality gap', () => {
    const pairs = balancedPairs(4000, 6);
    expect(rate(pairs, 'length')).toBe(0.5);
    expect(rate(pairs, 'format')).toBe(0.5);
    // Length tells nothing of the content: the label rate is ½ whatever the gap in quality.
    for (const gap of [1, 2, 3]) {
      const same = pairs.filter((p) => p.chosen.quality - p.rejected.quality === gap);
      expect(rate(same, 'length')).toBeCloseTo(0.5, 1);
    }
    // Either half (the MI estimate fits q on one and scores the other) is balanced too.
    expect(rate(pairs.slice(0, 2000), 'length')).toBe(0.5);
    expect(rate(pairs.slice(2000), 'format')).toBe(0.5);
  });
});

describe('dirVerdicts', () => {
  const seed = (s: number, bt: [number, number], dir: [number, number]): DirSeedResult => ({
    seed: s,
    arms: [
      { method: 'bt', balanced_accuracy: bt[0], biased_accuracy: 0.99, mi: { length: bt[1] } },
      { method: 'dir', balanced_accuracy: dir[0], biased_accuracy: 0.9, mi: { length: dir[1] } },
    ],
  });

  test('balanced accuracy and MI are DIR − BT paired by seed', () => {
    const [accuracy, mi] = dirVerdicts(
      [seed(0, [0.8, 0.5], [0.85, 0.1]), seed(1, [0.7, 0.4], [0.76, 0.05]), seed(2, [0.9, 0.6], [0.96, 0.2])],
      ['length'],
    );
    expect(accuracy?.effect).toBeCloseTo(0.0567, 4);
    expect(accuracy?.status).toBe('held');
    expect(mi?.claim).toBe('DIR lowers the MI between its representation and length');
    expect(mi?.effect).toBeCloseTo(-0.3833, 4);
    expect(mi?.status).toBe('held');
  });

  test('a reversal across seeds is inconclusive, the other side not_held, a diverged seed too_small', () => {
    const [reversed] = dirVerdicts(
      [seed(0, [0.8, 0.5], [0.9, 0.1]), seed(1, [0.8, 0.4], [0.7, 0.1]), seed(2, [0.8, 0.6], [0.85, 0.2])],
      ['length'],
    );
    expect(reversed?.status).toBe('inconclusive');
    const [, higher] = dirVerdicts(
      [seed(0, [0.8, 0.1], [0.8, 0.5]), seed(1, [0.8, 0.1], [0.8, 0.4]), seed(2, [0.8, 0.2], [0.8, 0.6])],
      ['length'],
    );
    expect(higher?.status).toBe('not_held');
    const diverged = dirVerdicts(
      [
        seed(0, [0.8, 0.5], [Number.NaN, Number.NaN]),
        seed(1, [0.8, 0.4], [0.9, 0.1]),
        seed(2, [0.8, 0.6], [0.9, 0.2]),
      ],
      ['length'],
    );
    for (const v of diverged) expect(v.why).toBe('1 of 3 seeds gave no finite effect');
  });

  test('one MI verdict per attribute; below the minimum every status is too_small', () => {
    const s = seed(0, [0.8, 0.5], [0.9, 0.1]);
    const verdicts = dirVerdicts([s, { ...s, seed: 1 }, { ...s, seed: 2 }], ['length', 'format'], 'small');
    expect(verdicts.map((v) => v.claim)).toEqual([
      'DIR keeps accuracy on bias-balanced pairs at least as well as BT',
      'DIR lowers the MI between its representation and length',
      'DIR lowers the MI between its representation and format',
    ]);
    for (const v of verdicts) expect(v).toMatchObject({ status: 'too_small', why: 'small' });
    // The format MI is missing from these results: no finite effect, not a zero.
    expect(dirVerdicts([s, { ...s, seed: 1 }, { ...s, seed: 2 }], ['format'])[1]?.status).toBe('too_small');
  });
});

describe('runDirExperiment', () => {
  const tiny: DirOptions = {
    ...DIR_DEFAULTS,
    width: 8,
    heads: 2,
    depth: 1,
    qHidden: 8,
    batch: 8,
    steps: 9,
    warmup: 2,
    evalPairs: 16,
    refitSteps: 3,
    seeds: [0],
    logEvery: 1,
    checkpointEvery: 4,
  };

  test('an interrupted run resumes from its checkpoint: the same metrics and results, no step repeated', () => {
    const before = tf.memory().numTensors;
    const whole = runDirExperiment(tiny, mkdtempSync(join(tmpdir(), 'rk-dir-')));
    // Every tensor of both models, the q's and the evaluation is released.
    expect(tf.memory().numTensors).toBe(before);
    const dir = mkdtempSync(join(tmpdir(), 'rk-dir-'));
    // Stop DIR's run after its step 6: its checkpoint at step 4 is on disk, BT's result too.
    expect(() =>
      runDirExperiment(tiny, dir, (done) => {
        if (done === tiny.steps + 6) throw new Error('interrupted');
      }),
    ).toThrow('interrupted');
    expect(readdirSync(join(dir, 'runs')).sort()).toEqual(['bt-s0.result.json', 'dir-s0.ckpt.json']);
    const resumed = runDirExperiment(tiny, dir);
    expect(resumed.metrics).toEqual(whole.metrics);
    expect(resumed.summary).toEqual(whole.summary);
    const steps = resumed.metrics.map((m) => `${m.run}:${m.step}`);
    expect(new Set(steps).size).toBe(2 * tiny.steps);
  });
});
