import { RewardKitError } from '../core/index.js';

/** One equal-width bin of a reliability curve; the means are null in an empty bin. */
export interface ReliabilityBin {
  readonly lo: number;
  readonly hi: number;
  readonly count: number;
  /** Mean predicted probability of the bin's points (the confidence). */
  readonly mean_score: number | null;
  /** Mean label of the bin's points (the observed frequency). */
  readonly observed: number | null;
}

/** How well predicted probabilities match the labels. */
export interface CalibrationMetrics {
  readonly n: number;
  /** Expected calibration error: Σ (n_b / n)·|observed_b − mean_score_b| over equal-width bins. */
  readonly ece: number;
  /** Maximum calibration error: the largest |observed_b − mean_score_b| over non-empty bins. */
  readonly mce: number;
  /** Mean squared difference between probability and label. */
  readonly brier: number;
  readonly bins: readonly ReliabilityBin[];
}

/**
 * The reliability curve over `binCount` equal-width bins of [0, 1]. A probability on a bin's upper
 * edge goes to the bin above it, except 1, which goes to the last bin.
 */
export function reliabilityCurve(
  probabilities: readonly number[],
  labels: readonly number[],
  binCount = 10,
): ReliabilityBin[] {
  checkInputs(probabilities, labels, binCount);
  const count = new Array<number>(binCount).fill(0);
  const scoreSum = new Array<number>(binCount).fill(0);
  const labelSum = new Array<number>(binCount).fill(0);
  probabilities.forEach((p, i) => {
    const b = Math.min(binCount - 1, Math.floor(p * binCount));
    count[b] = (count[b] as number) + 1;
    scoreSum[b] = (scoreSum[b] as number) + p;
    labelSum[b] = (labelSum[b] as number) + (labels[i] as number);
  });
  return count.map((n, b) => ({
    lo: b / binCount,
    hi: (b + 1) / binCount,
    count: n,
    mean_score: n === 0 ? null : (scoreSum[b] as number) / n,
    observed: n === 0 ? null : (labelSum[b] as number) / n,
  }));
}

/**
 * ECE, MCE and Brier score of probabilities against labels. Labels are usually 0/1; a label in
 * between (a graded human judgment) counts as that fraction of a positive, so the observed
 * frequency of a bin is its mean label.
 */
export function calibrationMetrics(
  probabilities: readonly number[],
  labels: readonly number[],
  binCount = 10,
): CalibrationMetrics {
  const bins = reliabilityCurve(probabilities, labels, binCount);
  const n = probabilities.length;
  let ece = 0;
  let mce = 0;
  for (const bin of bins) {
    if (bin.count === 0) continue;
    const gap = Math.abs((bin.observed as number) - (bin.mean_score as number));
    ece += (bin.count / n) * gap;
    mce = Math.max(mce, gap);
  }
  let brier = 0;
  probabilities.forEach((p, i) => {
    brier += (p - (labels[i] as number)) ** 2;
  });
  return { n, ece, mce, brier: brier / n, bins };
}

function checkInputs(probabilities: readonly number[], labels: readonly number[], binCount: number): void {
  if (!(Number.isInteger(binCount) && binCount >= 1))
    throw new RewardKitError('RK_USAGE', `bin count ${binCount} is not a positive integer`);
  if (probabilities.length !== labels.length)
    throw new RewardKitError('RK_USAGE', `${probabilities.length} probabilities but ${labels.length} labels`);
  if (probabilities.length === 0) throw new RewardKitError('RK_USAGE', 'no points to measure calibration on');
  probabilities.forEach((p, i) => {
    if (!(p >= 0 && p <= 1))
      throw new RewardKitError('RK_USAGE', `probability ${p} at index ${i} is not in [0, 1]`);
    const label = labels[i] as number;
    if (!(label >= 0 && label <= 1))
      throw new RewardKitError('RK_USAGE', `label ${label} at index ${i} is not in [0, 1]`);
  });
}
