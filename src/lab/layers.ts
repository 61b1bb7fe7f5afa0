import * as tf from '@tensorflow/tfjs';

/** Named parameter tensors; key order is the model's fixed order (init, checkpoints, optimizer). */
export type Params = Record<string, tf.Tensor>;

/** LayerNorm over the last axis with a gain and a bias; eps 1e-6 keeps a unit-variance token at RMS 1 to 1e-5. */
export function layerNorm(x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor, eps = 1e-6): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  return x
    .sub(mean)
    .mul(tf.rsqrt(variance.add(eps)))
    .mul(gain)
    .add(bias);
}

/** Swaps the last two axes. */
const swapLast = (t: tf.Tensor): tf.Tensor =>
  t.transpose([...Array.from({ length: t.rank - 2 }, (_, i) => i), t.rank - 1, t.rank - 2]);

/**
 * `a @ b` (batched over leading axes) whose gradient transposes explicitly: the WASM backend's
 * matmul with `transposeA`/`transposeB` — what tfjs's own MatMul gradient uses — runs ~10–40×
 * slower than a transpose followed by a plain matmul.
 */
export const matMul = tf.customGrad(((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy: tf.Tensor, [sa, sb]: tf.Tensor[]) => [
      tf.matMul(dy, swapLast(sb as tf.Tensor)),
      tf.matMul(swapLast(sa as tf.Tensor), dy),
    ],
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (a: tf.Tensor, b: tf.Tensor) => tf.Tensor;

/** `x [..., d] @ w [d, e]` as one 2-D matmul, the fastest path on the WASM backend. */
export function linear(x: tf.Tensor, w: tf.Tensor): tf.Tensor {
  const d = x.shape[x.rank - 1] as number;
  const lead = x.shape.slice(0, -1);
  return matMul(x.reshape([-1, d]), w).reshape([...lead, w.shape[1] as number]);
}

/** Additive attention mask: 0 where a query may look, -1e9 at future keys when causal. */
export function attentionMask(seqLen: number): tf.Tensor2D {
  return tf.linalg
    .bandPart(tf.ones([seqLen, seqLen]), -1, 0)
    .sub(1)
    .mul(1e9) as tf.Tensor2D;
}

/** Multi-head self-attention, `x [B, T, D]` → `[B, T, D]`; `wqkv [D, 3D]`, `wo [D, D]`. */
export function multiHeadAttention(
  x: tf.Tensor,
  w: { wqkv: tf.Tensor; wo: tf.Tensor },
  heads: number,
  causal: boolean,
): tf.Tensor {
  const [b, t, d] = x.shape as [number, number, number];
  const dh = d / heads;
  const [q, k, v] = tf
    .split(linear(x, w.wqkv), 3, -1)
    .map((m) => m.reshape([b, t, heads, dh]).transpose([0, 2, 1, 3]));
  let scores = matMul(q as tf.Tensor, swapLast(k as tf.Tensor)).mul(1 / Math.sqrt(dh));
  if (causal) scores = scores.add(attentionMask(t));
  const mixed = matMul(tf.softmax(scores), v as tf.Tensor);
  return linear(mixed.transpose([0, 2, 1, 3]).reshape([b, t, d]), w.wo);
}

/** The position-wise MLP, `relu(x W1) W2`. */
export function mlp(x: tf.Tensor, w: { w1: tf.Tensor; w2: tf.Tensor }): tf.Tensor {
  return linear(tf.relu(linear(x, w.w1)), w.w2);
}

/** Cross-entropy per position: `logits [B, T, V]`, `targets [B, T]` (int32) → `[B, T]`. */
export function tokenCrossEntropy(logits: tf.Tensor, targets: tf.Tensor): tf.Tensor {
  const vocab = logits.shape[logits.rank - 1] as number;
  return tf
    .logSoftmax(logits)
    .mul(tf.oneHot(targets as tf.Tensor2D, vocab))
    .sum(-1)
    .neg();
}
