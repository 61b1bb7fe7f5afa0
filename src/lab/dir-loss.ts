import * as tf from '@tensorflow/tfjs';
import { linear, type Params } from './layers.js';
import { seededNormal } from './seeded-normal.js';

/**
 * DIR's objective on tensors, for training: the same quantities as `dir-objective.ts` (the
 * numbers its tests hold these to), differentiable in the reward model's representation.
 */

/** L_BT = −mean log σ(Δr), `deltas [N]`: −log σ(x) = softplus(−x). */
export const bradleyTerryTensor = (deltas: tf.Tensor): tf.Scalar =>
  tf.softplus(deltas.neg()).mean() as tf.Scalar;

/**
 * CLUB's Î from q's log-probabilities `logq [N, C]` and the labels `[N]` (int32):
 * (1/N) Σ_i log q(A_i|z_i) − (1/N²) Σ_i Σ_j log q(A_j|z_i). The double sum is each row's
 * log-probabilities weighted by the labels' class frequencies, so it costs N·C, not N².
 */
export function clubTensor(logq: tf.Tensor, labels: tf.Tensor): tf.Scalar {
  const classes = logq.shape[1] as number;
  const onehot = tf.oneHot(labels as tf.Tensor1D, classes).toFloat();
  const positive = logq.mul(onehot).sum(1).mean();
  const frequencies = onehot.mean(0);
  return positive.sub(logq.mul(frequencies).sum(1).mean()) as tf.Scalar;
}

/** q's cross-entropy on the labels, what each of its own steps minimizes. */
export function classifierCrossEntropyTensor(logq: tf.Tensor, labels: tf.Tensor): tf.Scalar {
  const onehot = tf.oneHot(labels as tf.Tensor1D, logq.shape[1] as number).toFloat();
  return logq.mul(onehot).sum(1).mean().neg() as tf.Scalar;
}

/** q_φ(A|z): an MLP d → hidden → ReLU → 2; seeded weights of variance 1/fan-in, biases at 0. */
export function initClassifier(width: number, hidden: number, seed: number): Params {
  return {
    w1: tf.tensor(seededNormal(width * hidden, 1 / Math.sqrt(width), seed), [width, hidden]),
    b1: tf.zeros([hidden]),
    w2: tf.tensor(seededNormal(hidden * 2, 1 / Math.sqrt(hidden), seed + 1), [hidden, 2]),
    b2: tf.zeros([2]),
  };
}

/** log q(·|z) for `z [N, d]` → `[N, 2]`. */
export const classifierLogProbs = (q: Params, z: tf.Tensor): tf.Tensor =>
  tf.logSoftmax(
    linear(tf.relu(linear(z, q.w1 as tf.Tensor).add(q.b1 as tf.Tensor)), q.w2 as tf.Tensor).add(
      q.b2 as tf.Tensor,
    ),
  );
