/**
 * DIR's objective in numbers (`../shared/methods/rl.md`, "DIR"): the Bradley–Terry loss, the CLUB
 * upper bound on the mutual information between the reward representation and a bias attribute,
 * and the bias labels. The lab's tfjs training computes the same quantities on tensors; these are
 * the reference values its tests and the audit use.
 */
import { clubEstimate } from '../core/index.js';

// CLUB moved to core so the audit can use it without tfjs; the lab's callers keep this path.
export { clubEstimate, gaussianClubEstimate } from '../core/index.js';

/** L_BT = −mean log σ(r_chosen − r_rejected), computed stably for large |Δ|. */
export function bradleyTerryLoss(deltas: readonly number[]): number {
  if (deltas.length === 0) return Number.NaN;
  // −log σ(x) = softplus(−x) = max(−x, 0) + log1p(e^−|x|)
  const softplus = (x: number) => Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
  return deltas.reduce((sum, d) => sum + softplus(-d), 0) / deltas.length;
}

/** q's cross-entropy on the labels: what each of q's own training steps minimizes. */
export function classifierCrossEntropy(q: readonly (readonly number[])[], labels: readonly number[]): number {
  return -labels.reduce((sum, a, i) => sum + Math.log(q[i]?.[a] ?? Number.NaN), 0) / labels.length;
}

/** DIR's loss for the reward model: L_BT + λ·Î, q frozen. */
export function dirLoss(
  deltas: readonly number[],
  q: readonly (readonly number[])[],
  labels: readonly number[],
  lambda: number,
): number {
  return bradleyTerryLoss(deltas) + lambda * clubEstimate(q, labels);
}

/** The length bias label of each pair: 1 when the chosen response is longer. */
export const lengthBiasLabels = (
  chosenLengths: readonly number[],
  rejectedLengths: readonly number[],
): number[] => chosenLengths.map((c, i) => (c > (rejectedLengths[i] ?? Number.POSITIVE_INFINITY) ? 1 : 0));
