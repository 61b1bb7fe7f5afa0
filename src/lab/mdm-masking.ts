/** The masking probability at time t: p = (1 − eps)·t + eps, so no step masks nothing. */
export const maskProbability = (t: number, eps = 1e-3): number => (1 - eps) * t + eps;

/**
 * ISAD: the rare answer delimiter is masked with q = min(1, t + 0.2) instead of p, so its
 * prediction is trained more often; its loss is reweighted by 1/q to stay unbiased.
 */
export const isadProbability = (t: number): number => Math.min(1, t + 0.2);

/**
 * MIRROR: one uniform U_i per token drives two masks at the same rate: U_i < p and U_i > 1 − p.
 * For p ≤ 1/2 they are disjoint, so the pair covers twice the tokens with negatively correlated errors.
 */
export function mirrorMasks(uniforms: readonly number[], p: readonly number[]): [boolean[], boolean[]] {
  return [uniforms.map((u, i) => u < (p[i] as number)), uniforms.map((u, i) => u > 1 - (p[i] as number))];
}

/**
 * Var(mirror pair mean) / Var(one sample) of the ELBO estimate with fixed per-token losses, t ≤ 1/2:
 * (1 − 2t) / (2(1 − t)). An independent pair gives 1/2.
 */
export const mirrorVarianceRatio = (t: number): number => (1 - 2 * t) / (2 * (1 - t));
