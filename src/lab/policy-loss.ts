import { clippedObjective } from '../rl/clipped-objective.js';

/**
 * The policy loss of the lab's RL loop, in numbers: GRPO's clipped surrogate per token with each
 * sequence's own clip bounds (so ETR's elastic bounds from `etrClipBounds` plug in unchanged, and
 * equal bounds are plain GRPO), minus β times the k3 estimate of KL to the reference policy. The
 * lab's tfjs loss computes the same on tensors; this is the reference its tests compare with.
 */
export interface PolicyLossInput {
  /** log π_θ(token) per sequence, per generated token. */
  logprobs: readonly (readonly number[])[];
  /** log π_old(token): the policy that sampled the rollouts. */
  oldLogprobs: readonly (readonly number[])[];
  /** log π_ref(token), for the KL term (needed when `klCoef` > 0). */
  refLogprobs?: readonly (readonly number[])[];
  /**
   * One advantage per sequence, or one per token (AFRL's stepwise advantages: each step's tokens
   * carry that step's advantage), shaped like `logprobs`.
   */
  advantages: readonly number[] | readonly (readonly number[])[];
  /** Clip widths per sequence (ETR) or one for all (GRPO: 0.2 and 0.2). */
  epsLow: number | readonly number[];
  epsHigh: number | readonly number[];
  /** β of the KL penalty; default 0 (no reference policy needed). */
  klCoef?: number;
  /**
   * `sequence-mean` (GRPO: the mean over each sequence's tokens, then over sequences; default) or
   * `token-mean` (DAPO: one mean over every token of the batch, so long sequences weigh more).
   */
  aggregation?: 'sequence-mean' | 'token-mean';
}

export interface PolicyLoss {
  /** What the optimizer minimizes: −(surrogate − β·KL), aggregated. */
  loss: number;
  /** Share of tokens whose clipped term was the smaller one (no gradient through them). */
  clippedFraction: number;
  /** Mean k3 KL estimate per token (0 without reference log-probs). */
  kl: number;
}

/** k3 = e^(ref − new) − (ref − new) − 1 ≥ 0: an unbiased, low-variance per-token KL(π‖π_ref) estimate. */
export const k3Kl = (logprob: number, refLogprob: number) => {
  const r = refLogprob - logprob;
  return Math.exp(r) - r - 1;
};

export function policyLoss(input: PolicyLossInput): PolicyLoss {
  const { logprobs, oldLogprobs, advantages, klCoef = 0, aggregation = 'sequence-mean' } = input;
  const n = logprobs.length;
  if (oldLogprobs.length !== n || advantages.length !== n) {
    throw new RangeError(
      `policyLoss: ${n} sequences, ${oldLogprobs.length} old, ${advantages.length} advantages`,
    );
  }
  if (klCoef > 0 && input.refLogprobs?.length !== n) {
    throw new RangeError('policyLoss: klCoef > 0 needs refLogprobs for every sequence');
  }
  const width = (eps: number | readonly number[], i: number) =>
    typeof eps === 'number' ? eps : (eps[i] as number);
  let sequenceSum = 0;
  let tokenSum = 0;
  let tokens = 0;
  let clipped = 0;
  let klSum = 0;
  for (let i = 0; i < n; i++) {
    const seq = logprobs[i] as readonly number[];
    const old = oldLogprobs[i] as readonly number[];
    if (old.length !== seq.length)
      throw new RangeError(`policyLoss: sequence ${i} has ${seq.length} tokens, old ${old.length}`);
    const bounds = { epsLow: width(input.epsLow, i), epsHigh: width(input.epsHigh, i) };
    const a = advantages[i] as number | readonly number[];
    if (typeof a !== 'number' && a.length !== seq.length)
      throw new RangeError(`policyLoss: sequence ${i} has ${seq.length} tokens, ${a.length} advantages`);
    let sum = 0;
    for (let t = 0; t < seq.length; t++) {
      const ratio = Math.exp((seq[t] as number) - (old[t] as number));
      const term = clippedObjective(ratio, typeof a === 'number' ? a : (a[t] as number), bounds);
      const kl = klCoef > 0 ? k3Kl(seq[t] as number, input.refLogprobs?.[i]?.[t] as number) : 0;
      sum += term.objective - klCoef * kl;
      clipped += term.clipped ? 1 : 0;
      klSum += kl;
    }
    if (seq.length > 0) sequenceSum += sum / seq.length;
    tokenSum += sum;
    tokens += seq.length;
  }
  const objective = aggregation === 'token-mean' ? tokenSum / tokens : sequenceSum / n;
  return {
    loss: -objective,
    clippedFraction: tokens === 0 ? 0 : clipped / tokens,
    kl: tokens === 0 ? 0 : klSum / tokens,
  };
}
