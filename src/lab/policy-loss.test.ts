import { describe, expect, it } from 'vitest';
import { etrClipBounds } from '../rl/etr-clip-bounds.js';
import { k3Kl, policyLoss } from './policy-loss.js';

const ln = Math.log;

describe('policyLoss', () => {
  // ../shared/methods/rl.md, ETR: rho = 1.3, A = 1.7320: GRPO clips (objective 2.0785, zero
  // gradient); ETR with eps = 0.3732 does not (objective 2.2517).
  it('GRPO clips rho = 1.3 at 1.2; ETR with eps 0.3732 does not', () => {
    // A = √3: the first advantage of rewards [1,0,0,0] with population std.
    const one = { logprobs: [[ln(1.3)]], oldLogprobs: [[0]], advantages: [Math.sqrt(3)] };
    const grpo = policyLoss({ ...one, epsLow: 0.2, epsHigh: 0.2 });
    expect(grpo.loss).toBeCloseTo(-2.0785, 4);
    expect(grpo.clippedFraction).toBe(1);
    const etr = policyLoss({ ...one, epsLow: 0.3732, epsHigh: 0.3732 });
    expect(etr.loss).toBeCloseTo(-2.2517, 4);
    expect(etr.clippedFraction).toBe(0);
  });

  it('ETR with zero coefficients is GRPO: the same bounds, the same loss', () => {
    const rewards = [1, 0, 0, 0];
    const etr = etrClipBounds(rewards, { alpha: 0, beta: 0 });
    expect(etr.epsLow).toEqual([0.2, 0.2, 0.2, 0.2]);
    expect(etr.epsHigh).toEqual([0.2, 0.2, 0.2, 0.2]);
    const batch = {
      logprobs: [[ln(1.5), ln(0.5)], [ln(0.7)], [ln(1.1), ln(0.9), ln(1.0)], [ln(1.25)]],
      oldLogprobs: [[0, 0], [0], [0, 0, 0], [0]],
      advantages: etr.advantages,
    };
    expect(policyLoss({ ...batch, epsLow: etr.epsLow, epsHigh: etr.epsHigh }).loss).toBeCloseTo(
      policyLoss({ ...batch, epsLow: 0.2, epsHigh: 0.2 }).loss,
      12,
    );
  });

  it('clips negative advantages at 1 − eps: min(rho·A, clip·A) with A < 0', () => {
    // rho = 0.5, A = −1: unclipped −0.5, clipped 0.8·(−1) = −0.8 → the min −0.8, clipped.
    const low = policyLoss({
      logprobs: [[ln(0.5)]],
      oldLogprobs: [[0]],
      advantages: [-1],
      epsLow: 0.2,
      epsHigh: 0.2,
    });
    expect(low.loss).toBeCloseTo(0.8, 12);
    expect(low.clippedFraction).toBe(1);
    // rho = 1.5, A = −1: unclipped −1.5 is the min, so the gradient flows (not clipped).
    const high = policyLoss({
      logprobs: [[ln(1.5)]],
      oldLogprobs: [[0]],
      advantages: [-1],
      epsLow: 0.2,
      epsHigh: 0.2,
    });
    expect(high.loss).toBeCloseTo(1.5, 12);
    expect(high.clippedFraction).toBe(0);
  });

  it('sequence-mean weighs sequences equally, token-mean weighs tokens', () => {
    const batch = {
      logprobs: [[0, 0, 0], [0]],
      oldLogprobs: [[0, 0, 0], [0]],
      advantages: [1, -1],
      epsLow: 0.2,
      epsHigh: 0.2,
    };
    expect(policyLoss(batch).loss).toBeCloseTo(0, 12); // (1 + −1) / 2
    expect(policyLoss({ ...batch, aggregation: 'token-mean' }).loss).toBeCloseTo(-0.5, 12); // (3 − 1) / 4
  });

  it('the KL term: k3 of new = ln 0.5 against ref = ln 0.25 is 0.193147, 0 at the reference', () => {
    expect(k3Kl(ln(0.5), ln(0.25))).toBeCloseTo(0.193147, 6);
    expect(k3Kl(ln(0.3), ln(0.3))).toBe(0);
    const withKl = policyLoss({
      logprobs: [[ln(0.5)]],
      oldLogprobs: [[ln(0.5)]],
      refLogprobs: [[ln(0.25)]],
      advantages: [0],
      epsLow: 0.2,
      epsHigh: 0.2,
      klCoef: 0.1,
    });
    expect(withKl.loss).toBeCloseTo(0.1 * 0.193147, 6);
    expect(withKl.kl).toBeCloseTo(0.193147, 6);
  });

  it('refuses mismatched shapes and a KL without reference log-probs', () => {
    const base = { logprobs: [[0]], oldLogprobs: [[0]], advantages: [1], epsLow: 0.2, epsHigh: 0.2 };
    expect(() => policyLoss({ ...base, advantages: [1, 2] })).toThrow(RangeError);
    expect(() => policyLoss({ ...base, oldLogprobs: [[0, 0]] })).toThrow(RangeError);
    expect(() => policyLoss({ ...base, klCoef: 0.1 })).toThrow(/refLogprobs/);
  });
});
