import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, expect, test } from 'vitest';
import { charCorpus, grammarText, lmBatch } from './char-corpus.js';
import { lmLoss } from './lm-loss.js';
import { modelConfigSchema } from './model-config.js';
import { loadTf } from './tf-runtime.js';
import { type RunSpec, trainRun } from './training-run.js';
import { initParams } from './transformer.js';

beforeAll(async () => {
  await loadTf();
});

const corpus = charCorpus(grammarText(4000, 1));
const model = modelConfigSchema.parse({
  vocab: corpus.chars.length,
  width: 16,
  heads: 2,
  depth: 2,
  seqLen: 8,
  norm: 'post',
});
const spec = (onProgress?: (n: number) => void): RunSpec<{ params: number[] }> => ({
  id: 'run',
  train: {
    lr: 1e-2,
    steps: 10,
    warmup: 2,
    batch: 4,
    beta1: 0.9,
    beta2: 0.95,
    weightDecay: 0.1,
    clip: 1,
    seed: 3,
  },
  init: () => initParams(model, 3),
  loss: (params, step) => {
    const b = lmBatch(corpus.train, { batch: 4, seqLen: 8, seed: 3, step });
    return lmLoss(params, model, tf.tensor(b.inputs, [4, 8], 'int32'), tf.tensor(b.targets, [4, 8], 'int32'));
  },
  evaluate: (params) => ({ params: Array.from(params['l1.mlp.w2']?.dataSync() ?? []) }),
  logEvery: 1,
  checkpointEvery: 4,
  spikeFactor: 3,
  ...(onProgress && { onProgress }),
});

test('a run interrupted after a checkpoint resumes from it, bit for bit, with the same metric lines', () => {
  const before = tf.memory().numTensors;
  const straight = trainRun(spec(), mkdtempSync(join(tmpdir(), 'rewardkit-lab-')));
  // Batches made inside the loss, the state and the evaluation are all disposed.
  expect(tf.memory().numTensors).toBe(before);
  const dir = mkdtempSync(join(tmpdir(), 'rewardkit-lab-'));
  let steps = 0;
  expect(() =>
    trainRun(
      spec((n) => {
        steps += n;
        if (steps === 7) throw new Error('interrupted');
      }),
      dir,
    ),
  ).toThrow('interrupted');
  expect(existsSync(join(dir, 'run.ckpt.json'))).toBe(true);
  const resumed = trainRun(spec(), dir);
  expect(resumed).toEqual(straight);
  expect(existsSync(join(dir, 'run.ckpt.json'))).toBe(false);
});

test('a non-finite loss is a result: the run stops, recorded as diverged at that step', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewardkit-lab-'));
  const base = spec();
  const result = trainRun(
    {
      ...base,
      loss: (params, step) =>
        (step === 5 ? base.loss(params, step).mul(Number.NaN) : base.loss(params, step)) as tf.Scalar,
    },
    dir,
  );
  expect(result.divergence.diverged).toBe(true);
  expect(result.divergence.events).toContainEqual({ step: 5, kind: 'nonfinite', loss: Number.NaN });
  expect(result.evaluation).toBeUndefined();
  expect(result.steps).toBe(6);
});
