import * as tf from '@tensorflow/tfjs';

/**
 * The lab's RL policy loss on tensors: `policyLoss` (policy-loss.ts, the number reference its tests
 * compare with) per token — min(ρA, clip(ρ, 1 − ε⁻ᵢ, 1 + ε⁺ᵢ)A) − β·k3(π, π_ref) with each
 * sequence's own bounds — averaged over each sequence's tokens, then over sequences (GRPO's
 * sequence mean). Sequences of different lengths share one padded shape; `mask` marks real tokens.
 */
export interface PolicyLossTensors {
  /** log π_θ of the generated tokens, [N, C]: the only input gradients flow through. */
  logprobs: tf.Tensor2D;
  /** log π_old, [N, C]. */
  oldLogprobs: tf.Tensor2D;
  /** log π_ref, [N, C]; needed when `klCoef` > 0. */
  refLogprobs?: tf.Tensor2D;
  /** 1 on a generated token, 0 on padding, [N, C]. */
  mask: tf.Tensor2D;
  /** One advantage per sequence, or per token [N, C] (padding entries are masked out). */
  advantages: readonly number[] | readonly (readonly number[])[];
  epsLow: readonly number[];
  epsHigh: readonly number[];
  klCoef: number;
}

export function policyLossTensor(input: PolicyLossTensors): tf.Scalar {
  const { logprobs, oldLogprobs, mask, klCoef } = input;
  const column = (xs: readonly number[]) => tf.tensor2d([...xs], [xs.length, 1]);
  const { advantages } = input;
  const advantage = isPerToken(advantages)
    ? tf.tensor2d(advantages.map((row) => [...row]))
    : column(advantages);
  const ratio = logprobs.sub(oldLogprobs).exp();
  const clippedRatio = tf.minimum(
    tf.maximum(ratio, column(input.epsLow).neg().add(1)),
    column(input.epsHigh).add(1),
  );
  let term = tf.minimum(ratio.mul(advantage), clippedRatio.mul(advantage));
  if (klCoef > 0) {
    if (input.refLogprobs === undefined)
      throw new RangeError('policyLossTensor: klCoef > 0 needs refLogprobs');
    const r = input.refLogprobs.sub(logprobs);
    term = term.sub(r.exp().sub(r).sub(1).mul(klCoef));
  }
  const perSequence = term
    .mul(mask)
    .sum(1)
    .div(tf.maximum(mask.sum(1), 1));
  return perSequence.mean().neg() as tf.Scalar;
}

const isPerToken = (
  a: readonly number[] | readonly (readonly number[])[],
): a is readonly (readonly number[])[] => a.length > 0 && typeof a[0] !== 'number';

/**
 * Log-probabilities and entropies of the next token from `logits [N, C, V]` at `temperature`
 * (the sampling distribution is the policy): `logprobs [N, C]` of `targets [N, C]`, and the
 * per-position entropy [N, C]. The target is picked by a one-hot product, not a gather: the WASM
 * backend has no kernel for gather's gradient.
 */
export function tokenLogprobs(
  logits: tf.Tensor,
  targets: tf.Tensor2D,
  temperature: number,
): { logprobs: tf.Tensor2D; entropy: tf.Tensor2D } {
  const vocab = logits.shape[logits.rank - 1] as number;
  const logp = tf.logSoftmax(logits.div(temperature));
  return {
    logprobs: logp.mul(tf.oneHot(targets, vocab)).sum(-1) as tf.Tensor2D,
    entropy: logp.exp().mul(logp).sum(-1).neg() as tf.Tensor2D,
  };
}
