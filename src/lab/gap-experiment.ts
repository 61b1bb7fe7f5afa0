import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { createRng } from '../core/index.js';
import { loadParams, saveParams } from './checkpoint.js';
import { capacitySelection, pcaBasis } from './gap-alignment.js';
import type { GapMode, GapOptions } from './gap-options.js';
import { type Params, tokenCrossEntropy } from './layers.js';
import { type ModelConfig, modelConfigSchema } from './model-config.js';
import type { LabReport } from './report.js';
import { type RunResult, trainRun } from './training-run.js';
import { embed, head, initParams, trunk } from './transformer.js';

/**
 * The toy: prompt `a b c ?`, a hidden intermediate z = (a + b) mod 10 (the "visual evidence"),
 * answer y = (z + c) mod 10. The base model learns the text chain `a b c ? z y`; latent feedback
 * replaces the z token by a vector made from the final hidden state at `?`.
 */
const QUERY = 10;
const VOCAB = 11;
const PROMPT = 4;

interface GapExample {
  a: number;
  b: number;
  c: number;
  z: number;
  y: number;
}

function gapExamples(n: number, seed: number): GapExample[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => {
    const [a, b, c] = [rng.int(0, 9), rng.int(0, 9), rng.int(0, 9)];
    const z = (a + b) % 10;
    return { a, b, c, z, y: (z + c) % 10 };
  });
}

export const GAP_CLAIM =
  "A pre-norm model's final hidden states sit at a far larger norm than its input embeddings, so feeding them back raw misleads it; aligning the fed-back latent (norm match, PCA-aligned head) restores it.";

const rows2d = (t: tf.Tensor): number[][] => t.arraySync() as number[][];
const meanNorm = (rows: number[][]) => rows.reduce((s, r) => s + Math.hypot(...r), 0) / rows.length;

/** The latent fed back for mode: raw h, h rescaled to the mean input-embedding norm, or the PCA head P_kᵀ F(RMSNorm(h)) + mu. */
export function feedbackLatent(
  mode: GapMode,
  h: tf.Tensor,
  o: { embeddingNorm: number; basis?: tf.Tensor; mu?: tf.Tensor; f?: tf.Tensor },
): tf.Tensor {
  if (mode === 'raw') return h;
  if (mode === 'norm-matched') return h.div(tf.norm(h, 'euclidean', -1, true)).mul(o.embeddingNorm);
  const rms = h.div(tf.sqrt(h.square().mean(-1, true).add(1e-6)));
  return tf.matMul(tf.matMul(rms, o.f as tf.Tensor), o.basis as tf.Tensor).add(o.mu as tf.Tensor);
}

/** Runs `a b c ?`, feeds the latent back as the fifth input, and returns the answer logits, the latent and h. */
function latentForward(
  params: Params,
  config: ModelConfig,
  examples: GapExample[],
  mode: GapMode,
  align: { embeddingNorm: number; basis?: tf.Tensor; mu?: tf.Tensor },
): { logits: tf.Tensor; latent: tf.Tensor; h: tf.Tensor } {
  const prompt = tf.tensor2d(
    examples.map((e) => [e.a, e.b, e.c, QUERY]),
    [examples.length, PROMPT],
    'int32',
  );
  const x = embed(params, prompt);
  const h = trunk(params, config, x)
    .raw.slice([0, PROMPT - 1, 0], [-1, 1, -1])
    .squeeze([1]);
  const latent = feedbackLatent(mode, h, { ...align, ...(params['gap.f'] && { f: params['gap.f'] }) });
  const pos = (params.pos as tf.Tensor).slice([PROMPT, 0], [1, -1]);
  const second = tf.concat([x, latent.add(pos).expandDims(1)], 1);
  const out = trunk(params, config, second).out.slice([0, PROMPT, 0], [-1, 1, -1]);
  return { logits: head(params, config, out).squeeze([1]), latent, h };
}

export interface GapModeResult {
  mode: GapMode;
  hidden_norm_ratio: number;
  fed_norm_ratio: number;
  accuracy: number;
  supervised_share: number;
}

/** The verdict lines (pure). */
export function gapVerdicts(results: GapModeResult[], baseHiddenRatio: number): string[] {
  const lines = [
    `norm mismatch: ${baseHiddenRatio > 2 ? 'held' : 'not held'} — the base model's final hidden state sits at ${baseHiddenRatio.toFixed(1)}× its input-embedding norm.`,
  ];
  const raw = results.find((r) => r.mode === 'raw');
  for (const r of results.filter((x) => x.mode !== 'raw'))
    if (raw)
      lines.push(
        `alignment helps (${r.mode} vs raw h): ${r.accuracy > raw.accuracy ? 'held' : 'not held'} — accuracy ${r.accuracy.toFixed(3)} vs ${raw.accuracy.toFixed(3)}, fed-back norm ${r.fed_norm_ratio.toFixed(2)}× vs ${raw.fed_norm_ratio.toFixed(2)}× the input embeddings.`,
      );
  return lines;
}

/** The GAP toy: a base pre-norm model on the text chain, then latent-feedback training per mode. Resumable in `dir`. */
export function runGapExperiment(
  o: GapOptions,
  dir: string,
  onProgress?: (done: number, total: number) => void,
): LabReport {
  const config = modelConfigSchema.parse({
    vocab: VOCAB,
    width: o.width,
    heads: o.heads,
    depth: o.depth,
    seqLen: PROMPT + 2,
    norm: 'pre',
  });
  const total = o.baseSteps + o.modes.length * o.latentSteps;
  let done = 0;
  const progress = (n: number) => {
    done += n;
    onProgress?.(done, total);
  };
  const runs = join(dir, 'runs');
  const basePath = join(runs, 'base.params.json');
  const evalSet = gapExamples(o.evalExamples, 424_242);
  const train = (steps: number) => ({
    lr: o.lr,
    steps,
    warmup: o.warmup,
    batch: o.batch,
    beta1: 0.9,
    beta2: 0.95,
    weightDecay: 0.1,
    clip: 1,
    seed: o.seed,
  });
  const textBatch = (examples: GapExample[]) => examples.map((e) => [e.a, e.b, e.c, QUERY, e.z, e.y]);

  // The base model: next-token loss on z (at `?`) and y (at z) of the text chain.
  const base = trainRun(
    {
      id: 'base',
      train: train(o.baseSteps),
      init: () => initParams(config, o.seed),
      loss: (params, step) => {
        const seqs = textBatch(gapExamples(o.batch, o.seed * 1_000_003 + step));
        const inputs = tf.tensor2d(
          seqs.map((s) => s.slice(0, 5)),
          [o.batch, 5],
          'int32',
        );
        const targets = tf.tensor2d(
          seqs.map((s) => s.slice(1)),
          [o.batch, 5],
          'int32',
        );
        const ce = tokenCrossEntropy(
          head(params, config, trunk(params, config, embed(params, inputs)).out),
          targets,
        );
        return ce.slice([0, 3], [-1, 2]).mean() as tf.Scalar;
      },
      evaluate: (params) => {
        saveParams(basePath, params);
        return {};
      },
      logEvery: o.logEvery,
      checkpointEvery: o.checkpointEvery,
      spikeFactor: 10,
      onProgress: progress,
    },
    runs,
  );
  if (base.divergence.diverged) throw new Error('the base model diverged: lower --lr');
  const baseParams = loadParams(basePath);
  const embeddings = rows2d(baseParams.tok as tf.Tensor);
  const embeddingNorm = meanNorm(embeddings);
  const pca = pcaBasis(embeddings, o.pcaK);
  const basis = tf.tensor2d(pca.basis);
  const mu = tf.tensor1d(pca.mu);

  // Capacity level: the base model's expected accuracy per training example, p(z | prompt) · p(y | prompt, z).
  const estimatedAccuracy = (params: Params, examples: GapExample[]) =>
    tf.tidy(() => {
      const seqs = textBatch(examples);
      const logits = head(
        params,
        config,
        trunk(
          params,
          config,
          embed(
            params,
            tf.tensor2d(
              seqs.map((s) => s.slice(0, 5)),
              [seqs.length, 5],
              'int32',
            ),
          ),
        ).out,
      );
      const p = tf.softmax(logits).arraySync() as number[][][];
      return examples.map((e, i) => (p[i]?.[3]?.[e.z] as number) * (p[i]?.[4]?.[e.y] as number));
    });
  const baseHidden = tf.tidy(() =>
    rows2d(latentForward(baseParams, config, evalSet, 'raw', { embeddingNorm }).h),
  );
  const baseHiddenRatio = meanNorm(baseHidden) / embeddingNorm;

  const supervisedShare =
    capacitySelection(estimatedAccuracy(baseParams, evalSet), o.tau).filter(Boolean).length / evalSet.length;
  const perRun: RunResult<GapModeResult>[] = [];
  const results = o.modes.map((mode) => {
    const result = trainRun(
      {
        id: `latent-${mode}`,
        train: train(o.latentSteps),
        init: () => {
          const params: Params = Object.fromEntries(
            Object.entries(baseParams).map(([n, t]) => [n, t.clone()]),
          );
          // F starts as a small partial identity (deterministic); training aligns it.
          if (mode === 'pca')
            params['gap.f'] = tf.tensor(
              new Float32Array(o.width * o.pcaK).map((_, i) => (i % (o.pcaK + 1) === 0 ? 0.1 : 0)),
              [o.width, o.pcaK],
            );
          return params;
        },
        loss: (params, step) => {
          const examples = gapExamples(o.batch, o.seed * 1_000_003 + 500_000 + step);
          const selected = capacitySelection(estimatedAccuracy(baseParams, examples), o.tau);
          // Latent targets are the (detached) input embeddings of z; only selected examples get them.
          const target = tf.tensor2d(examples.map((e) => embeddings[e.z] as number[]));
          const mask = tf.tensor1d(selected.map((s) => (s ? 1 : 0)));
          const { logits, latent } = latentForward(params, config, examples, mode, {
            embeddingNorm,
            basis,
            mu,
          });
          const answer = tokenCrossEntropy(
            logits.expandDims(1),
            tf.tensor2d(
              examples.map((e) => [e.y]),
              [examples.length, 1],
              'int32',
            ),
          ).mean();
          const aux = latent.sub(target).square().mean(-1).mul(mask).mean();
          return answer.add(aux.mul(o.latentWeight)) as tf.Scalar;
        },
        evaluate: (params): GapModeResult =>
          tf.tidy(() => {
            const { logits, latent, h } = latentForward(params, config, evalSet, mode, {
              embeddingNorm,
              basis,
              mu,
            });
            const predicted = logits.argMax(-1).arraySync() as number[];
            return {
              mode,
              hidden_norm_ratio: meanNorm(rows2d(h)) / embeddingNorm,
              fed_norm_ratio: meanNorm(rows2d(latent)) / embeddingNorm,
              accuracy: evalSet.filter((e, i) => predicted[i] === e.y).length / evalSet.length,
              supervised_share: supervisedShare,
            };
          }),
        logEvery: o.logEvery,
        checkpointEvery: o.checkpointEvery,
        spikeFactor: 10,
        onProgress: progress,
      },
      runs,
    );
    perRun.push(result);
    return (
      result.evaluation ?? {
        mode,
        hidden_norm_ratio: Number.NaN,
        fed_norm_ratio: Number.NaN,
        accuracy: 0,
        supervised_share: 0,
      }
    );
  });
  tf.dispose([basis, mu, ...Object.values(baseParams)]);
  return {
    title: 'GAP toy: latent feedback in a pre-norm model',
    claim: GAP_CLAIM,
    verdicts: gapVerdicts(results, baseHiddenRatio),
    charts: [
      {
        title: 'latent-feedback training loss',
        rows: perRun.flatMap((r) => r.metrics),
        x: 'step',
        y: 'loss',
        series: 'run',
        logY: true,
      },
    ],
    tables: [
      {
        title: `per mode (base model: hidden/input norm ratio ${baseHiddenRatio.toFixed(2)})`,
        columns: ['mode', 'hidden/input norm', 'fed-back/input norm', 'accuracy', 'latent-supervised share'],
        rows: results.map((r) => [
          r.mode,
          r.hidden_norm_ratio,
          r.fed_norm_ratio,
          r.accuracy,
          r.supervised_share,
        ]),
      },
    ],
    metrics: [...base.metrics, ...perRun.flatMap((r) => r.metrics)],
    summary: {
      options: o,
      base_hidden_norm_ratio: baseHiddenRatio,
      embedding_norm: embeddingNorm,
      modes: results,
    },
  };
}
