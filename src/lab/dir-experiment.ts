import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { adamwStep, createTrainState, disposeTrainState, type TrainState } from './adamw.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import {
  bradleyTerryTensor,
  classifierCrossEntropyTensor,
  classifierLogProbs,
  clubTensor,
  initClassifier,
} from './dir-loss.js';
import { clubEstimate } from './dir-objective.js';
import { DIR_MINIMUM, type DirAttribute, type DirOptions } from './dir-options.js';
import { balancedPairs, biasedPairs, DIR_SEQ_LEN, DIR_VOCAB, type PreferencePair } from './dir-pairs.js';
import {
  DIR_METHODS,
  type DirArmResult,
  type DirMethod,
  type DirSeedResult,
  dirVerdicts,
} from './dir-verdicts.js';
import { type DivergenceState, initialDivergenceState, observeLoss } from './divergence.js';
import { belowMinimum } from './lab-minimum.js';
import { linear, type Params } from './layers.js';
import { warmupCosine } from './lr-schedule.js';
import { type ModelConfig, modelConfigSchema } from './model-config.js';
import type { LabReport } from './report.js';
import { seededNormal } from './seeded-normal.js';
import type { MetricLine } from './training-run.js';
import { embed, initParams, trunk } from './transformer.js';

export const DIR_CLAIM =
  'A Bradley–Terry reward model trained on preferences where the chosen response is usually longer learns length; adding λ·CLUB (an upper bound on the MI between its representation and the bias attribute) keeps its accuracy on bias-balanced pairs while that MI falls.';

/** The fixed evaluation sets, the same for every seed and method. */
const BALANCED_SEED = 777_001;
const BIASED_SEED = 777_002;
const EVAL_CHUNK = 256;
/**
 * The refitted q's learning rate: gentle, so that in `--refit-steps` (100) it stays calibrated. At
 * 3e-3 for 200 steps it grew overconfident on its half, and CLUB's crossed term (log q of the
 * other label) put estimates at 1–5 nats, beyond a binary label's ln 2, swamping the comparison.
 */
const REFIT_LR = 1e-3;

/** The reward model: the lab transformer (causal, pre-norm) and a linear score head on h, END's final hidden state. */
function initRewardModel(config: ModelConfig, seed: number): Params {
  const params = initParams(config, seed);
  params['score.w'] = tf.tensor(seededNormal(config.width, 0.02, seed * 100_003 + 99_991), [config.width, 1]);
  return params;
}

/** h for every chosen and rejected response, and Δr = r_c − r_r, z = h_c − h_r per pair. */
function pairForward(
  params: Params,
  config: ModelConfig,
  pairs: PreferencePair[],
): { delta: tf.Tensor; z: tf.Tensor } {
  const n = pairs.length;
  const tokens = tf.tensor2d(
    [...pairs.map((p) => p.chosen.tokens), ...pairs.map((p) => p.rejected.tokens)],
    [2 * n, DIR_SEQ_LEN],
    'int32',
  );
  const h = trunk(params, config, embed(params, tokens))
    .out.slice([0, DIR_SEQ_LEN - 1, 0], [-1, 1, -1])
    .squeeze([1]);
  const r = linear(h, params['score.w'] as tf.Tensor).squeeze([1]);
  return {
    delta: r.slice([0], [n]).sub(r.slice([n], [n])),
    z: h.slice([0, 0], [n, -1]).sub(h.slice([n, 0], [n, -1])),
  };
}

const labelsOf = (pairs: PreferencePair[], attribute: DirAttribute) =>
  tf.tensor1d(
    pairs.map((p) => p[attribute]),
    'int32',
  );

/** Δr and z over a whole evaluation set, in chunks, as numbers. */
function evaluatePairs(params: Params, config: ModelConfig, pairs: PreferencePair[]) {
  const deltas: number[] = [];
  const z: number[][] = [];
  for (let i = 0; i < pairs.length; i += EVAL_CHUNK)
    tf.tidy(() => {
      const out = pairForward(params, config, pairs.slice(i, i + EVAL_CHUNK));
      deltas.push(...(out.delta.arraySync() as number[]));
      z.push(...(out.z.arraySync() as number[][]));
    });
  return { deltas, z };
}

const accuracy = (deltas: number[]) => deltas.filter((d) => d > 0).length / deltas.length;

/**
 * The MI estimate of a trained model: a fresh q fitted on the standardized z of the first half of
 * the balanced pairs, CLUB on the second half. On the balanced pairs the label is independent of
 * the content, so what q finds in z there is the attribute itself, not the preference.
 */
function refittedMi(
  z: number[][],
  pairs: PreferencePair[],
  attribute: DirAttribute,
  o: DirOptions,
  seed: number,
): number {
  const half = Math.floor(pairs.length / 2);
  const d = z[0]?.length ?? 0;
  const fit = z.slice(0, half);
  const mean = Array.from({ length: d }, (_, k) => fit.reduce((s, r) => s + (r[k] as number), 0) / half);
  const std = Array.from({ length: d }, (_, k) =>
    Math.sqrt(fit.reduce((s, r) => s + ((r[k] as number) - (mean[k] as number)) ** 2, 0) / half + 1e-12),
  );
  const standardized = z.map((r) => r.map((v, k) => (v - (mean[k] as number)) / (std[k] as number)));
  const labels = pairs.map((p) => p[attribute]);
  const state = createTrainState(initClassifier(d, o.qHidden, seed));
  const zFit = tf.tensor2d(standardized.slice(0, half));
  const aFit = tf.tensor1d(labels.slice(0, half), 'int32');
  const zHeld = tf.tensor2d(standardized.slice(half));
  try {
    for (let k = 0; k < o.refitSteps; k++)
      adamwStep(state, (q) => classifierCrossEntropyTensor(classifierLogProbs(q, zFit), aFit), {
        lr: REFIT_LR,
        beta1: 0.9,
        beta2: 0.999,
        weightDecay: 0.01,
        clip: 1,
      });
    const probs = tf.tidy(() => classifierLogProbs(state.params, zHeld).exp().arraySync() as number[][]);
    return clubEstimate(probs, labels.slice(half));
  } finally {
    tf.dispose([zFit, aFit, zHeld]);
    disposeTrainState(state);
  }
}

interface Saved {
  metrics: MetricLine[];
  divergence: DivergenceState;
  qStep: number;
}

interface ArmRun {
  steps: number;
  metrics: MetricLine[];
  divergence: DivergenceState;
  evaluation?: DirArmResult;
}

// One checkpoint holds the reward model and every q, their names prefixed, so both resume together.
const prefixed = (prefix: string, params: Params): Params =>
  Object.fromEntries(Object.entries(params).map(([n, t]) => [`${prefix}/${n}`, t]));
const unprefixed = (prefix: string, params: Params): Params =>
  Object.fromEntries(
    Object.entries(params)
      .filter(([n]) => n.startsWith(`${prefix}/`))
      .map(([n, t]) => [n.slice(prefix.length + 1), t]),
  );
const part = (state: TrainState, prefix: string, step: number): TrainState => ({
  step,
  params: unprefixed(prefix, state.params),
  m: unprefixed(prefix, state.m),
  v: unprefixed(prefix, state.v),
});

/** DIR against plain Bradley–Terry, per seed, compute-matched (same init, batches, steps, lr). Resumable in `dir`. */
export function runDirExperiment(
  o: DirOptions,
  dir: string,
  onProgress?: (done: number, total: number) => void,
): LabReport {
  const config = modelConfigSchema.parse({
    vocab: DIR_VOCAB,
    width: o.width,
    heads: o.heads,
    depth: o.depth,
    seqLen: DIR_SEQ_LEN,
    norm: 'pre',
  });
  const total = o.seeds.length * DIR_METHODS.length * o.steps;
  let done = 0;
  const progress = (n: number) => {
    done += n;
    onProgress?.(done, total);
  };
  const runs = join(dir, 'runs');
  mkdirSync(runs, { recursive: true });
  const balanced = balancedPairs(o.evalPairs, BALANCED_SEED);
  const biased = biasedPairs(o.evalPairs, BIASED_SEED, { ...o, labelNoise: 0 });
  const notRun = (method: DirMethod): DirArmResult => ({
    method,
    balanced_accuracy: Number.NaN,
    biased_accuracy: Number.NaN,
    mi: Object.fromEntries(o.attributes.map((a) => [a, Number.NaN])),
  });

  const evaluate = (params: Params, method: DirMethod, seed: number): DirArmResult => {
    const onBalanced = evaluatePairs(params, config, balanced);
    return {
      method,
      balanced_accuracy: accuracy(onBalanced.deltas),
      biased_accuracy: accuracy(evaluatePairs(params, config, biased).deltas),
      mi: Object.fromEntries(
        o.attributes.map((a, k) => [a, refittedMi(onBalanced.z, balanced, a, o, seed * 7_919 + 5_000 + k)]),
      ),
    };
  };

  /**
   * One reward model. DIR's step: K AdamW steps of each q on the batch's detached z
   * (cross-entropy), then q frozen and one reward-model step on L_BT + λ Σ_attributes Î. BT's step
   * is the same reward-model step without the CLUB term.
   */
  const trainArm = (method: DirMethod, seed: number): ArmRun => {
    const id = `${method}-s${seed}`;
    const resultPath = join(runs, `${id}.result.json`);
    const checkpointPath = join(runs, `${id}.ckpt.json`);
    if (existsSync(resultPath)) {
      progress(o.steps);
      return JSON.parse(readFileSync(resultPath, 'utf8')) as ArmRun;
    }
    const attributes = method === 'dir' ? o.attributes : [];
    let rm = createTrainState(initRewardModel(config, seed));
    let qs = attributes.map((_, k) => createTrainState(initClassifier(o.width, o.qHidden, seed * 7_919 + k)));
    let saved: Saved = { metrics: [], divergence: initialDivergenceState(), qStep: 0 };
    if (existsSync(checkpointPath)) {
      disposeTrainState(rm);
      for (const q of qs) disposeTrainState(q);
      const loaded = loadCheckpoint(checkpointPath);
      const extra = loaded.extra as Saved;
      saved = {
        ...extra,
        divergence: { ...extra.divergence, best: extra.divergence.best ?? Number.POSITIVE_INFINITY },
      };
      rm = part(loaded.state, 'rm', loaded.state.step);
      qs = attributes.map((a) => part(loaded.state, `q.${a}`, saved.qStep));
      progress(rm.step);
    }
    const checkpoint = () => {
      const states = [
        ['rm', rm] as const,
        ...attributes.map((a, k) => [`q.${a}`, qs[k] as TrainState] as const),
      ];
      const merged = (key: 'params' | 'm' | 'v') =>
        Object.assign({}, ...states.map(([prefix, s]) => prefixed(prefix, s[key]))) as Params;
      saveCheckpoint(
        checkpointPath,
        { step: rm.step, params: merged('params'), m: merged('m'), v: merged('v') },
        { ...saved, qStep: qs[0]?.step ?? 0 },
      );
    };
    try {
      while (rm.step < o.steps && !saved.divergence.diverged) {
        const step = rm.step;
        const lr = warmupCosine(step, { lr: o.lr, warmup: o.warmup, steps: o.steps });
        // The same batches for both methods on a seed: drawn from (seed, step).
        const batch = biasedPairs(o.batch, seed * 1_000_003 + step, o);
        const labels = attributes.map((a) => labelsOf(batch, a));
        if (attributes.length > 0) {
          const z = tf.tidy(() => pairForward(rm.params, config, batch).z);
          qs.forEach((q, k) => {
            for (let i = 0; i < o.qSteps; i++)
              adamwStep(
                q,
                (qp) => classifierCrossEntropyTensor(classifierLogProbs(qp, z), labels[k] as tf.Tensor),
                { lr: o.qLr, beta1: 0.9, beta2: 0.999, weightDecay: 0.01, clip: 1 },
              );
          });
          z.dispose();
        }
        const out = adamwStep(
          rm,
          (params) => {
            const { delta, z } = pairForward(params, config, batch);
            return qs.reduce(
              (loss, q, k) =>
                loss.add(clubTensor(classifierLogProbs(q.params, z), labels[k] as tf.Tensor).mul(o.lambda)),
              bradleyTerryTensor(delta),
            ) as tf.Scalar;
          },
          { lr, beta1: 0.9, beta2: 0.95, weightDecay: 0.1, clip: 1 },
        );
        tf.dispose(labels);
        saved.divergence = observeLoss(saved.divergence, step, out.loss, {
          spikeFactor: 10,
          warmup: o.warmup,
        });
        if (step % o.logEvery === 0 || step === o.steps - 1 || saved.divergence.diverged)
          saved.metrics.push({ run: id, step, loss: out.loss, lr, grad_norm: out.gradNorm });
        // A non-finite loss leaves the state unchanged, so the step counter moves on here.
        if (saved.divergence.diverged) rm.step = step + 1;
        progress(1);
        if (rm.step % o.checkpointEvery === 0 && rm.step < o.steps) checkpoint();
      }
      progress(o.steps - rm.step);
      const result: ArmRun = {
        steps: rm.step,
        metrics: saved.metrics,
        divergence: saved.divergence,
        ...(saved.divergence.diverged ? {} : { evaluation: evaluate(rm.params, method, seed) }),
      };
      writeFileSync(resultPath, JSON.stringify(result));
      rmSync(checkpointPath, { force: true });
      return result;
    } finally {
      disposeTrainState(rm);
      for (const q of qs) disposeTrainState(q);
    }
  };

  const metrics: MetricLine[] = [];
  const seeds: DirSeedResult[] = o.seeds.map((seed) => ({
    seed,
    arms: DIR_METHODS.map((method) => {
      const run = trainArm(method, seed);
      metrics.push(...run.metrics);
      // A diverged model is data: its figures are NaN, so the verdicts over it say so.
      return run.evaluation ?? notRun(method);
    }),
  }));
  return {
    title: 'DIR: a debiased reward model on length-biased synthetic preferences',
    claim: DIR_CLAIM,
    verdicts: dirVerdicts(seeds, o.attributes, belowMinimum(o, DIR_MINIMUM)),
    charts: [
      {
        title: 'reward-model training loss (DIR: L_BT + λ·Î)',
        rows: metrics,
        x: 'step',
        y: 'loss',
        series: 'run',
      },
    ],
    tables: [
      {
        title: 'per seed and method (MI: CLUB with q refitted on held-out balanced pairs)',
        columns: [
          'seed',
          'method',
          'balanced accuracy',
          'biased accuracy',
          ...o.attributes.map((a) => `MI ${a}`),
        ],
        rows: seeds.flatMap((s) =>
          s.arms.map((a) => [
            s.seed,
            a.method,
            a.balanced_accuracy,
            a.biased_accuracy,
            ...o.attributes.map((attr) => a.mi[attr] ?? Number.NaN),
          ]),
        ),
      },
    ],
    metrics,
    summary: { options: o, seeds },
  };
}
