import { createRng, RewardKitError } from '../core/index.js';
import { applyCalibration } from './calibration-map.js';
import { type CalibrationMethod, fitCalibrationMap } from './fit-calibration-map.js';
import type { CalibrationPoint } from './isotonic-fit.js';

/**
 * Out-of-fold calibrated values: the points are shuffled with `seed` and dealt into `folds` folds,
 * and each fold is mapped by a calibration fitted on the other folds. Metrics on these are an honest
 * estimate of how the map does on new scores, unlike in-sample ones, which an isotonic fit can drive
 * toward zero error by memorizing the labels.
 */
export function crossFittedPredictions(
  points: readonly CalibrationPoint[],
  method: CalibrationMethod,
  folds: number,
  seed: number,
): number[] {
  if (!(Number.isInteger(folds) && folds >= 2))
    throw new RewardKitError('RK_USAGE', `folds must be an integer of at least 2, got ${folds}`);
  if (points.length < folds)
    throw new RewardKitError(
      'RK_USAGE',
      `${folds} folds need at least ${folds} labelled points, got ${points.length}`,
    );
  const order = createRng(seed).shuffle(points.map((_, i) => i));
  const foldOf = new Array<number>(points.length);
  order.forEach((index, position) => {
    foldOf[index] = position % folds;
  });
  const out = new Array<number>(points.length);
  for (let fold = 0; fold < folds; fold++) {
    const train = points.filter((_, i) => foldOf[i] !== fold);
    const map = fitCalibrationMap(train, method);
    points.forEach((p, i) => {
      if (foldOf[i] === fold) out[i] = applyCalibration(map, p.score);
    });
  }
  return out;
}
