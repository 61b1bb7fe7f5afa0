import type * as tf from '@tensorflow/tfjs';

/** SiameseNorm's X-stream scale for 0-based layer `l`: c_l = sqrt(2(l + 1)) (1.414, 2, 2.449, 2.828, …). */
export const siameseScale = (layer: number): number => Math.sqrt(2 * (layer + 1));

export type Norm = (x: tf.Tensor) => tf.Tensor;

/**
 * One SiameseNorm sublayer in the reference code's form (the paper writes the scale as
 * 1/sqrt(l + 1) and the head as X_N + LN(Y_N)): the X stream is normalized before every
 * sublayer (Post-Norm-like), the Y stream never (Pre-Norm-like), and both receive the shared
 * sublayer's output — X scaled by 1/c_l.
 */
export function siameseSublayer(
  streams: { x: tf.Tensor; y: tf.Tensor },
  sublayer: (u: tf.Tensor) => tf.Tensor,
  c: number,
  norms: { post: Norm; input: Norm; pre: Norm },
): { x: tf.Tensor; y: tf.Tensor } {
  const x = norms.post(streams.x);
  const o = sublayer(norms.input(x.add(norms.pre(streams.y))));
  return { x: x.add(o.div(c)), y: streams.y.add(o) };
}
