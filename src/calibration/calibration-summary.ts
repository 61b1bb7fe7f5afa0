import { RewardKitError } from '../core/index.js';
import { type CalibrationMetrics, calibrationMetrics } from './calibration-metrics.js';
import { crossFittedPredictions } from './cross-fit.js';
import { type CalibrationMethod, inSamplePredictions } from './fit-calibration-map.js';
import type { CalibrationPoint } from './isotonic-fit.js';

/** Calibration before and after a fit, as `rewardkit calibrate` reports it. */
export interface CalibrationSummary {
  readonly method: CalibrationMethod;
  readonly n: number;
  readonly bins: number;
  readonly folds: number;
  readonly seed: number;
  /** Metrics of the raw scores, or null when they are not probabilities (see `before_reason`). */
  readonly before: CalibrationMetrics | null;
  readonly before_reason?: string;
  /**
   * After the fit. `cross_fitted`: each point mapped by a fit on the other folds, an honest estimate
   * for new scores; `in_sample`: by the fit on every point, optimistic (an isotonic fit memorizes).
   */
  readonly after: { readonly cross_fitted: CalibrationMetrics; readonly in_sample: CalibrationMetrics };
}

export interface CalibrationSummaryOptions {
  readonly method: CalibrationMethod;
  readonly bins: number;
  readonly folds: number;
  readonly seed: number;
}

/**
 * Measures calibration before and after fitting `method` to the points. Refuses, before any
 * fitting, labels that cannot support the fit: all one value, or fractional labels for Platt.
 */
export function calibrationSummary(
  points: readonly CalibrationPoint[],
  options: CalibrationSummaryOptions,
): CalibrationSummary {
  const { method, bins, folds, seed } = options;
  const labels = points.map((p) => p.label);
  if (new Set(labels).size < 2)
    throw new RewardKitError(
      'RK_USAGE',
      `all ${points.length} labelled points have the label ${labels[0] ?? '(none)'}: a calibration needs both outcomes`,
    );
  if (method === 'platt' && labels.some((l) => l !== 0 && l !== 1))
    throw new RewardKitError(
      'RK_USAGE',
      'Platt scaling needs binary labels (0/1, true/false); some labels are fractions: use --method isotonic',
    );
  const scores = points.map((p) => p.score);
  const outside = scores.filter((s) => s < 0 || s > 1);
  const before = outside.length === 0 ? calibrationMetrics(scores, labels, bins) : null;
  // A loop, not Math.min(...scores): spreading a million arguments overflows the stack.
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const s of scores) {
    if (s < low) low = s;
    if (s > high) high = s;
  }
  return {
    method,
    n: points.length,
    bins,
    folds,
    seed,
    before,
    ...(before === null && {
      before_reason: `${outside.length} raw scores lie outside [0, 1] (range [${low}, ${high}]): they are not probabilities, so they have no calibration error to measure`,
    }),
    after: {
      cross_fitted: calibrationMetrics(crossFittedPredictions(points, method, folds, seed), labels, bins),
      in_sample: calibrationMetrics(inSamplePredictions(points, method), labels, bins),
    },
  };
}
