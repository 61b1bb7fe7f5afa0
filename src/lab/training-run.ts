import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as tf from '@tensorflow/tfjs';
import { adamwStep, createTrainState, disposeTrainState } from './adamw.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import { type DivergenceState, initialDivergenceState, observeLoss } from './divergence.js';
import type { Params } from './layers.js';
import { warmupCosine } from './lr-schedule.js';
import type { TrainConfig } from './model-config.js';

/** One logged training step, one line of `metrics.jsonl`. */
export type MetricLine = {
  run: string;
  step: number;
  loss: number;
  lr: number;
  grad_norm: number;
};

export interface RunResult<E> {
  run: string;
  steps: number;
  divergence: DivergenceState;
  metrics: MetricLine[];
  /** The run's evaluation; absent when it diverged. */
  evaluation?: E;
}

export interface RunSpec<E> {
  /** Unique within the experiment; names the checkpoint and result files. */
  id: string;
  train: TrainConfig;
  init: () => Params;
  /** The loss of the step's batch (drawn from the seed and the step, so a resume reads the same data). */
  loss: (params: Params, step: number) => tf.Scalar;
  evaluate: (params: Params) => E;
  logEvery: number;
  checkpointEvery: number;
  spikeFactor: number;
  /** Called with the number of steps just done (or skipped: a finished run read back, a diverged run's rest). */
  onProgress?: (steps: number) => void;
}

interface Saved {
  metrics: MetricLine[];
  divergence: DivergenceState;
}

// JSON has no Infinity: the best loss before any step is written as null.
const revive = (saved: Saved): Saved => ({
  ...saved,
  divergence: { ...saved.divergence, best: saved.divergence.best ?? Number.POSITIVE_INFINITY },
});

/**
 * Trains one configuration in `dir`, resumable: a finished run's result file is read back, not
 * retrained; an interrupted one continues from its checkpoint bit for bit. A divergence stops
 * the run and is its result, with the step.
 */
export function trainRun<E>(spec: RunSpec<E>, dir: string): RunResult<E> {
  mkdirSync(dir, { recursive: true });
  const resultPath = join(dir, `${spec.id}.result.json`);
  const checkpointPath = join(dir, `${spec.id}.ckpt.json`);
  if (existsSync(resultPath)) {
    const done = JSON.parse(readFileSync(resultPath, 'utf8')) as RunResult<E>;
    spec.onProgress?.(spec.train.steps);
    return done;
  }
  let state = createTrainState(spec.init());
  let saved: Saved = { metrics: [], divergence: initialDivergenceState() };
  if (existsSync(checkpointPath)) {
    disposeTrainState(state);
    const loaded = loadCheckpoint(checkpointPath);
    state = loaded.state;
    saved = revive(loaded.extra as Saved);
    spec.onProgress?.(state.step);
  }
  const t = spec.train;
  try {
    while (state.step < t.steps && !saved.divergence.diverged) {
      const step = state.step;
      const lr = warmupCosine(step, { lr: t.lr, warmup: t.warmup, steps: t.steps });
      const out = adamwStep(state, (p) => spec.loss(p, step), { ...t, lr });
      saved.divergence = observeLoss(saved.divergence, step, out.loss, {
        spikeFactor: spec.spikeFactor,
        warmup: t.warmup,
      });
      if (step % spec.logEvery === 0 || step === t.steps - 1 || saved.divergence.diverged)
        saved.metrics.push({ run: spec.id, step, loss: out.loss, lr, grad_norm: out.gradNorm });
      // A non-finite loss leaves the state unchanged, so the step counter moves on here.
      if (saved.divergence.diverged) state.step = step + 1;
      spec.onProgress?.(1);
      if (state.step % spec.checkpointEvery === 0 && state.step < t.steps)
        saveCheckpoint(checkpointPath, state, saved);
    }
    spec.onProgress?.(t.steps - state.step);
    const result: RunResult<E> = {
      run: spec.id,
      steps: state.step,
      ...saved,
      ...(saved.divergence.diverged ? {} : { evaluation: spec.evaluate(state.params) }),
    };
    writeFileSync(resultPath, JSON.stringify(result));
    rmSync(checkpointPath, { force: true });
    return result;
  } finally {
    disposeTrainState(state);
  }
}
