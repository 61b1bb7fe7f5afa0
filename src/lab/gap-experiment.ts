import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { createRng } from '../core/index.js';
import { loadParams, saveParams } from './checkpoint.js';
import { capacitySelection, pcaBasis } from './gap-alignment.js';
import { GAP_MINIMUM, type GapMode, type GapOptions, usesContextLoss } from './gap-options.js';
import { type GapModeResult, type GapSeedResult, gapVerdicts } from './gap-verdicts.js';
import { belowMinimum } from './lab-minimum.js';
import { type Params, tokenCrossEntropy } from './layers.js';
import { type ModelConfig, modelConfigSchema } from './model-config.js';
import type { LabReport } from './report.js';
import { type MetricLine, trainRun } from './training-run.js';
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

/**
 * The latent fed back for mode: nothing (the no-latent control: zeros, so the fifth input is its
 * position embedding alone), raw h, h rescaled to the mean input-embedding norm, or the PCA head
 * P_kᵀ F(RMSNorm(h)) + mu.
 */
export function feedbackLatent(
  mode: GapMode,
  h: tf.Tensor,
  o: { embeddingNorm: number; basis?: tf.Tensor; mu?: tf.Tensor; f?: tf.Tensor },
): tf.Tensor {
  if (mode === 'none') return tf.zerosLike(h);
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

/** The GAP toy, per seed: a base pre-norm model on the text chain, then latent-feedback training per mode. Resumable in `dir`. */
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
  const total = o.seeds.length * (o.baseSteps + o.modes.length * o.latentSteps);
  let done = 0;
  const progress = (n: number) => {
    done += n;
    onProgress?.(done, total);
  };
  const runs = join(dir, 'runs');
  const evalSet = gapExamples(o.evalExamples, 424_242);
  const train = (seed: number, steps: number) => ({
    lr: o.lr,
    steps,
    warmup: o.warmup,
    batch: o.batch,
    beta1: 0.9,
    beta2: 0.95,
    weightDecay: 0.1,
    clip: 1,
    seed,
  });
  const textBatch = (examples: GapExample[]) => examples.map((e) => [e.a, e.b, e.c, QUERY, e.z, e.y]);
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
  const metrics: MetricLine[] = [];
  const notRun = (mode: GapMode): GapModeResult => ({
    mode,
    hidden_norm_ratio: Number.NaN,
    fed_norm_ratio: Number.NaN,
    accuracy: Number.NaN,
    supervised_share: Number.NaN,
    context_loss: usesContextLoss(mode, o.contextLevel),
  });

  const runSeed = (seed: number): GapSeedResult => {
    const basePath = join(runs, `base-s${seed}.params.json`);
    // The base model: next-token loss on z (at `?`) and y (at z) of the text chain.
    const base = trainRun(
      {
        id: `base-s${seed}`,
        train: train(seed, o.baseSteps),
        init: () => initParams(config, seed),
        loss: (params, step) => {
          const seqs = textBatch(gapExamples(o.batch, seed * 1_000_003 + step));
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
    metrics.push(...base.metrics);
    // A diverged base model is this seed's result: no modes to train, every effect of it NaN.
    if (base.divergence.diverged) {
      progress(o.modes.length * o.latentSteps);
      return { seed, base_hidden_norm_ratio: Number.NaN, modes: o.modes.map(notRun) };
    }
    const baseParams = loadParams(basePath);
    const embeddings = rows2d(baseParams.tok as tf.Tensor);
    const embeddingNorm = meanNorm(embeddings);
    const pca = pcaBasis(embeddings, o.pcaK);
    const basis = tf.tensor2d(pca.basis);
    const mu = tf.tensor1d(pca.mu);
    const baseHidden = tf.tidy(() =>
      rows2d(latentForward(baseParams, config, evalSet, 'raw', { embeddingNorm }).h),
    );
    const baseHiddenRatio = meanNorm(baseHidden) / embeddingNorm;
    const supervisedShare =
      capacitySelection(estimatedAccuracy(baseParams, evalSet), o.tau).filter(Boolean).length /
      evalSet.length;
    const modes = o.modes.map((mode) => {
      const context = usesContextLoss(mode, o.contextLevel);
      const result = trainRun(
        {
          // The id says whether the context-level loss is on: the same mode trains differently without it.
          id: `latent-${mode}-${context ? 'ctx' : 'plain'}-s${seed}`,
          train: train(seed, o.latentSteps),
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
            const examples = gapExamples(o.batch, seed * 1_000_003 + 500_000 + step);
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
            ).mean() as tf.Scalar;
            if (!context) return answer;
            // Context level: latent targets are the (detached) input embeddings of z; capacity
            // level: only the examples the base model fails get them.
            const selected = capacitySelection(estimatedAccuracy(baseParams, examples), o.tau);
            const target = tf.tensor2d(examples.map((e) => embeddings[e.z] as number[]));
            const mask = tf.tensor1d(selected.map((s) => (s ? 1 : 0)));
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
                supervised_share: context ? supervisedShare : 0,
                context_loss: context,
              };
            }),
          logEvery: o.logEvery,
          checkpointEvery: o.checkpointEvery,
          spikeFactor: 10,
          onProgress: progress,
        },
        runs,
      );
      metrics.push(...result.metrics);
      // A diverged run is data: its accuracy is NaN, so the verdicts over it say so.
      return result.evaluation ?? notRun(mode);
    });
    tf.dispose([basis, mu, ...Object.values(baseParams)]);
    return { seed, base_hidden_norm_ratio: baseHiddenRatio, modes };
  };

  const seeds = o.seeds.map(runSeed);
  return {
    title: 'GAP toy: latent feedback in a pre-norm model',
    claim: GAP_CLAIM,
    verdicts: gapVerdicts(seeds, belowMinimum(o, GAP_MINIMUM)),
    charts: [
      {
        title: 'latent-feedback training loss',
        rows: metrics.filter((m) => m.run.startsWith('latent-')),
        x: 'step',
        y: 'loss',
        series: 'run',
        logY: true,
      },
    ],
    tables: [
      {
        title: "per seed and mode (base: the base model's hidden/input norm ratio)",
        columns: [
          'seed',
          'mode',
          'base hidden/input norm',
          'hidden/input norm',
          'fed-back/input norm',
          'accuracy',
          'context-level loss',
          'latent-supervised share',
        ],
        rows: seeds.flatMap((s) =>
          s.modes.map((r) => [
            s.seed,
            r.mode,
            s.base_hidden_norm_ratio,
            r.hidden_norm_ratio,
            r.fed_norm_ratio,
            r.accuracy,
            r.context_loss ? 'on' : 'off',
            r.supervised_share,
          ]),
        ),
      },
    ],
    metrics,
    summary: { options: o, seeds },
  };
}
