import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { adamwStep, createTrainState, disposeTrainState, type TrainState } from './adamw.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import { layerNorm, mlp, multiHeadAttention, type Params } from './layers.js';
import { lmLoss } from './lm-loss.js';
import { warmupCosine } from './lr-schedule.js';
import { type ModelConfig, modelConfigSchema, parseLabConfig, trainConfigSchema } from './model-config.js';
import { seededNormal } from './seeded-normal.js';
import { siameseScale, siameseSublayer } from './siamese-norm.js';
import { loadTf } from './tf-runtime.js';
import { embed, head, initParams, parameterShapes, trunk } from './transformer.js';

beforeAll(async () => {
  await loadTf();
});

const config = (over: Partial<ModelConfig> = {}): ModelConfig =>
  modelConfigSchema.parse({ vocab: 7, width: 8, heads: 2, depth: 2, seqLen: 5, ...over });
const tensor = (shape: number[], seed: number, std = 1) =>
  tf.tensor(
    seededNormal(
      shape.reduce((a, b) => a * b, 1),
      std,
      seed,
    ),
    shape,
  );
const tokens = (b: number, t: number, vocab: number, seed: number) =>
  tf.tensor2d(
    Array.from({ length: b * t }, (_, i) => (i * 7 + seed * 3 + ((i * i) % 5)) % vocab),
    [b, t],
    'int32',
  );

/**
 * Compares tf's gradient of `f` at `xs` with central differences on a few coordinates of each
 * input. float32 limits finite differences to ~1e-3 relative, so h = 1e-2 and a 2e-2 tolerance.
 */
function checkGradients(f: (...xs: tf.Tensor[]) => tf.Scalar, xs: tf.Tensor[]): void {
  const grads = tf.grads(f)(xs);
  xs.forEach((x, k) => {
    const g = grads[k]?.dataSync() as Float32Array;
    const base = x.dataSync().slice();
    for (const idx of [0, Math.floor(base.length / 2), base.length - 1]) {
      const at = (delta: number) => {
        const data = base.slice();
        data[idx] = (data[idx] as number) + delta;
        const moved = xs.map((other, j) => (j === k ? tf.tensor(data, x.shape) : other));
        const value = tf.tidy(() => f(...moved).dataSync()[0] as number);
        moved[k]?.dispose();
        return value;
      };
      const h = 1e-2;
      const numeric = (at(h) - at(-h)) / (2 * h);
      expect(Math.abs((g[idx] as number) - numeric)).toBeLessThan(2e-2 * Math.max(1, Math.abs(numeric)));
    }
  });
  tf.dispose(grads);
}

describe('SiameseNorm', () => {
  test('c_l = sqrt(2(l + 1)): 1.414, 2, 2.449, 2.828', () => {
    expect([0, 1, 2, 3].map((l) => siameseScale(l).toFixed(3))).toEqual(['1.414', '2.000', '2.449', '2.828']);
  });

  test('with F ≡ 0, Y stays the embedding and X has RMS 1 per token after each sublayer', () => {
    tf.tidy(() => {
      const e = tensor([2, 5, 8], 1);
      const ln = (x: tf.Tensor) => layerNorm(x, tf.ones([8]), tf.zeros([8]));
      let s = { x: e, y: e };
      for (let l = 0; l < 4; l++) {
        s = siameseSublayer(s, (u) => u.mul(0), siameseScale(l), { post: ln, input: ln, pre: ln });
        expect(tf.max(tf.abs(s.y.sub(e))).dataSync()[0]).toBe(0);
        const rms = tf.sqrt(s.x.square().mean(-1)).dataSync();
        for (const r of rms) expect(r).toBeCloseTo(1, 5);
      }
    });
  });

  test('with the X-stream terms set to zero it reduces to Pre-Norm (plus an input LN) to 1e-6', () => {
    const siam = config({ norm: 'siamese', depth: 3, width: 16, heads: 4, vocab: 11, tiedHead: false });
    const pre = { ...siam, norm: 'pre' as const };
    const sp = initParams(siam, 3);
    // Unit-variance embeddings: LN_in(LN_pre(y)) equals LN(y) up to eps/var(y), 1e-6 here (not 2.5e-3
    // as at the init std 0.02), which is the "plus an input LN" of the notes.
    for (const n of ['tok', 'pos']) sp[n] = (sp[n] as tf.Tensor).mul(50);
    // Pre-Norm with the same sublayer weights; its norms are SiameseNorm's LN_pre and LN_b.
    const pp: Params = Object.fromEntries(
      parameterShapes(pre).map(([n]) => {
        const from = n.replace('.ln.', '.lnPre.').replace(/^lnF\./, 'lnB.');
        return [n, sp[from] ?? (sp[n] as tf.Tensor)];
      }),
    );
    tf.tidy(() => {
      const input = tokens(2, 5, 11, 1);
      const e = embed(sp, input);
      const norm = (name: string) => (x: tf.Tensor) =>
        layerNorm(x, sp[`${name}.g`] as tf.Tensor, sp[`${name}.b`] as tf.Tensor);
      let y = e;
      for (let l = 0; l < siam.depth; l++)
        for (const s of ['attn', 'mlp'] as const) {
          const f = (u: tf.Tensor) =>
            s === 'attn'
              ? multiHeadAttention(
                  u,
                  { wqkv: sp[`l${l}.attn.wqkv`] as tf.Tensor, wo: sp[`l${l}.attn.wo`] as tf.Tensor },
                  4,
                  true,
                )
              : mlp(u, { w1: sp[`l${l}.mlp.w1`] as tf.Tensor, w2: sp[`l${l}.mlp.w2`] as tf.Tensor });
          const zero = tf.zerosLike(y);
          ({ y } = siameseSublayer({ x: zero, y }, f, siameseScale(l), {
            post: norm(`l${l}.${s}.lnPost`),
            input: norm(`l${l}.${s}.lnIn`),
            pre: norm(`l${l}.${s}.lnPre`),
          }));
        }
      const hSiam = norm('lnF')(norm('lnA')(tf.zerosLike(y)).add(norm('lnB')(y)));
      const logitsSiam = head(sp, siam, hSiam);
      const logitsPre = head(pp, pre, trunk(pp, pre, embed(pp, input)).out);
      expect(tf.max(tf.abs(logitsSiam.sub(logitsPre))).dataSync()[0]).toBeLessThan(1e-6);
    });
  });
});

describe('gradients against finite differences', () => {
  test('LayerNorm', () => {
    checkGradients(
      (x, g, b) =>
        layerNorm(x, g, b)
          .mul(tensor([2, 3, 4], 9))
          .sum() as tf.Scalar,
      [tensor([2, 3, 4], 1), tensor([4], 2), tensor([4], 3)],
    );
  });
  test.each([true, false])('multi-head attention (causal %s)', (causal) => {
    checkGradients(
      (x, wqkv, wo) =>
        multiHeadAttention(x, { wqkv, wo } as { wqkv: tf.Tensor; wo: tf.Tensor }, 2, causal)
          .mul(tensor([2, 3, 4], 9))
          .sum() as tf.Scalar,
      [tensor([2, 3, 4], 1), tensor([4, 12], 2, 0.5), tensor([4, 4], 3, 0.5)],
    );
  });
  test('MLP', () => {
    checkGradients(
      (x, w1, w2) =>
        mlp(x, { w1, w2 } as { w1: tf.Tensor; w2: tf.Tensor })
          .mul(tensor([2, 3, 4], 9))
          .sum() as tf.Scalar,
      [tensor([2, 3, 4], 1), tensor([4, 8], 2, 0.5), tensor([8, 4], 3, 0.5)],
    );
  });
  test.each(['pre', 'post', 'deepnorm', 'siamese'] as const)(
    'the whole model, %s norm, untied head',
    (norm) => {
      const c = config({ norm, tiedHead: false, depth: 2 });
      const params = initParams(c, 1);
      const names = Object.keys(params);
      const input = tokens(2, 5, 7, 1);
      const target = tokens(2, 5, 7, 2);
      // Larger weights than init so every block's gradient is well above float32 noise.
      const xs = names.map((n) =>
        n.endsWith('.g') || n.endsWith('.b') ? params[n] : (params[n] as tf.Tensor).mul(20),
      ) as tf.Tensor[];
      checkGradients(
        (...ts) => lmLoss(Object.fromEntries(names.map((n, i) => [n, ts[i] as tf.Tensor])), c, input, target),
        xs,
      );
    },
  );
});

describe('training', () => {
  const c = config({ norm: 'siamese', vocab: 11, width: 16, heads: 2, seqLen: 6 });
  const opts = { lr: 3e-3, beta1: 0.9, beta2: 0.95, weightDecay: 0.1, clip: 1 };
  const step = (state: TrainState) => {
    const input = tokens(4, 6, 11, state.step);
    const target = tokens(4, 6, 11, state.step + 1);
    const out = adamwStep(state, (p) => lmLoss(p, c, input, target), {
      ...opts,
      lr: warmupCosine(state.step, { lr: opts.lr, warmup: 2, steps: 8 }),
    });
    tf.dispose([input, target]);
    return out;
  };

  test('a checkpoint taken mid-run resumes bit-identically', () => {
    const straight = createTrainState(initParams(c, 5));
    for (let i = 0; i < 8; i++) step(straight);
    const first = createTrainState(initParams(c, 5));
    for (let i = 0; i < 3; i++) step(first);
    const path = join(mkdtempSync(join(tmpdir(), 'rewardkit-lab-')), 'ckpt.json');
    saveCheckpoint(path, first, { note: 'mid-run' });
    disposeTrainState(first);
    const { state: resumed, extra } = loadCheckpoint(path);
    expect(extra).toEqual({ note: 'mid-run' });
    expect(resumed.step).toBe(3);
    for (let i = 3; i < 8; i++) step(resumed);
    for (const n of Object.keys(straight.params)) {
      expect(Array.from(resumed.params[n]?.dataSync() ?? [])).toEqual(
        Array.from(straight.params[n]?.dataSync() ?? []),
      );
      expect(Array.from(resumed.v[n]?.dataSync() ?? [])).toEqual(Array.from(straight.v[n]?.dataSync() ?? []));
    }
    disposeTrainState(straight);
    disposeTrainState(resumed);
  });

  test('memory stays flat over a long run (tf.memory)', () => {
    const state = createTrainState(initParams(c, 6));
    step(state);
    const before = tf.memory();
    let last = 0;
    for (let i = 0; i < 60; i++) last = step(state).loss;
    expect(tf.memory().numTensors).toBe(before.numTensors);
    expect(tf.memory().numBytes).toBe(before.numBytes);
    expect(Number.isFinite(last)).toBe(true);
    disposeTrainState(state);
  });

  test('the loss falls on a learnable sequence', () => {
    const state = createTrainState(initParams(c, 7));
    const input = tf.tensor2d([[1, 2, 3, 4, 5, 6]], [1, 6], 'int32');
    const target = tf.tensor2d([[2, 3, 4, 5, 6, 7]], [1, 6], 'int32');
    const losses = Array.from(
      { length: 40 },
      () => adamwStep(state, (p) => lmLoss(p, c, input, target), { ...opts, lr: 1e-2 }).loss,
    );
    expect(losses.at(-1)).toBeLessThan((losses[0] as number) / 2);
    disposeTrainState(state);
    tf.dispose([input, target]);
  });
});

describe('config validation names the flag', () => {
  test.each([
    [{ heads: 3 }, '--heads: 3 does not divide --width 8'],
    [{ depth: 0 }, '--depth: must be at least 1'],
  ])('%j', (over, message) => {
    expect(() =>
      parseLabConfig(modelConfigSchema, { vocab: 7, width: 8, heads: 2, depth: 2, seqLen: 5, ...over }),
    ).toThrow(message);
  });
  test('lr ≤ 0', () => {
    expect(() => parseLabConfig(trainConfigSchema, { lr: 0, steps: 1, batch: 1 })).toThrow(
      '--lr: must be > 0',
    );
  });
});
