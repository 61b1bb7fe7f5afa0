import { RewardKitError } from '../../core/index.js';
import { type AgreementStatistic, noAgreement } from './agreement-statistic.js';

/** One unit rated by two raters (nominal categories). */
export type RatingPair<C> = readonly [C, C];

/**
 * Cohen's kappa of two raters over nominal categories: (p_o − p_e) / (1 − p_e), with p_e from
 * each rater's own marginal distribution.
 */
export function cohenKappa<C>(pairs: readonly RatingPair<C>[]): AgreementStatistic {
  const categories = [...new Set(pairs.flat())];
  const n = pairs.length;
  if (n === 0) return noAgreement(0, 'no unit was rated by both raters');
  const agreed = pairs.filter(([a, b]) => a === b).length;
  const share = (rater: 0 | 1, c: C) => pairs.filter((pair) => pair[rater] === c).length / n;
  const expected = categories.reduce((sum, c) => sum + share(0, c) * share(1, c), 0);
  if (expected >= 1)
    return noAgreement(n, `both raters gave every unit the same category (${String(categories[0])})`);
  return { value: (agreed / n - expected) / (1 - expected), units: n };
}

/** Disagreement weights of ordered categories i, j among k: linear |i−j|/(k−1), quadratic its square. */
export type KappaWeights = 'linear' | 'quadratic';

/**
 * Weighted kappa of two raters over ordered categories (`order`, lowest first):
 * 1 − Σ w_ij o_ij / Σ w_ij e_ij, where o is the observed and e the chance joint distribution.
 */
export function weightedCohenKappa<C>(
  pairs: readonly RatingPair<C>[],
  order: readonly C[],
  weights: KappaWeights,
): AgreementStatistic {
  const k = order.length;
  if (k < 2) throw new RewardKitError('RK_USAGE', 'weighted kappa needs at least two ordered categories');
  const rank = new Map(order.map((c, i) => [c, i]));
  const ranked = pairs.map(([a, b]) => {
    const i = rank.get(a);
    const j = rank.get(b);
    if (i === undefined || j === undefined) {
      throw new RewardKitError(
        'RK_USAGE',
        `rating ${String(i === undefined ? a : b)} is not among the ordered categories`,
      );
    }
    return [i, j] as const;
  });
  const n = ranked.length;
  if (n === 0) return noAgreement(0, 'no unit was rated by both raters');
  const weight = (i: number, j: number) => {
    const linear = Math.abs(i - j) / (k - 1);
    return weights === 'linear' ? linear : linear * linear;
  };
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  let observed = 0;
  for (const [i, j] of ranked) {
    rows[i] = (rows[i] ?? 0) + 1;
    cols[j] = (cols[j] ?? 0) + 1;
    observed += weight(i, j);
  }
  let expected = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) expected += weight(i, j) * (rows[i] ?? 0) * (cols[j] ?? 0);
  expected /= n;
  if (expected === 0) return noAgreement(n, 'both raters gave every unit the same category');
  return { value: 1 - observed / expected, units: n };
}
