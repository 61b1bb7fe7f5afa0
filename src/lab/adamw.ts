import * as tf from '@tensorflow/tfjs';
import type { Params } from './layers.js';

/** Parameters and AdamW moments at a step: everything a bit-identical resume needs besides the data seed. */
export interface TrainState {
  step: number;
  params: Params;
  m: Params;
  v: Params;
}

export interface AdamWOptions {
  lr: number;
  beta1: number;
  beta2: number;
  weightDecay: number;
  /** Global gradient-norm clip. */
  clip: number;
  eps?: number;
}

export function createTrainState(params: Params): TrainState {
  const zeros = () => Object.fromEntries(Object.entries(params).map(([n, t]) => [n, tf.zerosLike(t)]));
  return { step: 0, params, m: zeros(), v: zeros() };
}

export function disposeTrainState(state: TrainState): void {
  for (const group of [state.params, state.m, state.v]) for (const t of Object.values(group)) t.dispose();
}

/**
 * One optimizer step from `loss(params)`: gradients, global-norm clip, AdamW (decoupled weight
 * decay on matrices only: embeddings and projections, not LayerNorm gains and biases). Replaces
 * the state's tensors and disposes the old ones, so memory stays flat. Returns the loss and the
 * pre-clip gradient norm; a non-finite loss leaves the state unchanged.
 */
export function adamwStep(
  state: TrainState,
  loss: (params: Params) => tf.Scalar,
  o: AdamWOptions,
): { loss: number; gradNorm: number } {
  const names = Object.keys(state.params);
  const { value, grads } = tf.valueAndGrads((...xs: tf.Tensor[]) =>
    loss(Object.fromEntries(names.map((n, i) => [n, xs[i] as tf.Tensor]))),
  )(names.map((n) => state.params[n] as tf.Tensor));
  const lossValue = value.dataSync()[0] as number;
  const normT = tf.tidy(() => tf.sqrt(tf.addN(grads.map((g) => g.square().sum()))));
  const gradNorm = normT.dataSync()[0] as number;
  normT.dispose();
  value.dispose();
  if (!Number.isFinite(lossValue) || !Number.isFinite(gradNorm)) {
    tf.dispose(grads);
    return { loss: lossValue, gradNorm };
  }
  const scale = Math.min(1, o.clip / (gradNorm + 1e-6));
  const t = state.step + 1;
  const bc1 = 1 - o.beta1 ** t;
  const bc2 = 1 - o.beta2 ** t;
  const eps = o.eps ?? 1e-8;
  const next = tf.tidy(() =>
    names.map((n, i) => {
      const p = state.params[n] as tf.Tensor;
      const g = (grads[i] as tf.Tensor).mul(scale);
      const m = (state.m[n] as tf.Tensor).mul(o.beta1).add(g.mul(1 - o.beta1));
      const v = (state.v[n] as tf.Tensor).mul(o.beta2).add(g.square().mul(1 - o.beta2));
      const update = m.div(bc1).div(v.div(bc2).sqrt().add(eps));
      const decayed = p.rank >= 2 && o.weightDecay > 0 ? p.mul(1 - o.lr * o.weightDecay) : p;
      return [decayed.sub(update.mul(o.lr)), m, v] as const;
    }),
  );
  tf.dispose(grads);
  names.forEach((n, i) => {
    const [p, m, v] = next[i] as readonly [tf.Tensor, tf.Tensor, tf.Tensor];
    state.params[n]?.dispose();
    state.m[n]?.dispose();
    state.v[n]?.dispose();
    state.params[n] = p;
    state.m[n] = m;
    state.v[n] = v;
  });
  state.step = t;
  return { loss: lossValue, gradNorm };
}
