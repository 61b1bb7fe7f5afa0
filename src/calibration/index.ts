export { applyCalibration, type CalibrationMap, CalibrationMapSchema } from './calibration-map.js';
export {
  type CalibrationMetrics,
  calibrationMetrics,
  type ReliabilityBin,
  reliabilityCurve,
} from './calibration-metrics.js';
export {
  type CalibrationSummary,
  type CalibrationSummaryOptions,
  calibrationSummary,
} from './calibration-summary.js';
export { crossFittedPredictions } from './cross-fit.js';
export {
  type CalibrationMethod,
  type FittedOn,
  fitCalibrationMap,
  inSamplePredictions,
} from './fit-calibration-map.js';
export { applyIsotonic, type CalibrationPoint, fitIsotonic, type IsotonicKnots } from './isotonic-fit.js';
export { type JoinedLabels, joinLabels, type LabelRow, type ScoredRow } from './join-labels.js';
export { labelValue } from './label-value.js';
export { applyPlatt, fitPlatt, type PlattFit, type PlattParams } from './platt-fit.js';
export { type CalibrationMapResult, loadCalibrationMap, readCalibrationMap } from './read-calibration-map.js';
