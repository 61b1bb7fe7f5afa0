import { applyCalibration, type CalibrationMap } from './calibration-map.js';
import { type CalibrationPoint, fitIsotonic } from './isotonic-fit.js';
import { fitPlatt } from './platt-fit.js';

export type CalibrationMethod = CalibrationMap['method'];

/** Where a fitted map came from, beyond its point count. */
export interface FittedOn {
  readonly source?: string;
  readonly spec?: string;
  readonly [key: string]: unknown;
}

/** Fits a calibration map of `method` to labelled scores. */
export function fitCalibrationMap(
  points: readonly CalibrationPoint[],
  method: CalibrationMethod,
  fittedOn: FittedOn = {},
): CalibrationMap {
  const fitted_on = { n: points.length, ...fittedOn };
  if (method === 'isotonic') {
    const knots = fitIsotonic(points);
    return { version: 1, method, fitted_on, knots: { x: [...knots.x], y: [...knots.y] } };
  }
  const { a, b } = fitPlatt(
    points.map((p) => p.score),
    points.map((p) => p.label),
  );
  return { version: 1, method, fitted_on, a, b };
}

/** Every point's calibrated value under a map fitted on all the points (in-sample, optimistic). */
export function inSamplePredictions(
  points: readonly CalibrationPoint[],
  method: CalibrationMethod,
): number[] {
  const map = fitCalibrationMap(points, method);
  return points.map((p) => applyCalibration(map, p.score));
}
