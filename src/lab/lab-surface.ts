/**
 * What `rewardkit/lab` (./index.ts) exports, loaded by it once the lab's packages are known to be
 * there. The lab's experiments (`runDirExperiment`, `runGapExperiment`,
 * `runMdmExperiment`, `runRlvrExperiment`, `runSiameseNormExperiment`) with their options and verdicts, and the
 * parts to run one of your own: the transformer, AdamW, `trainRun`, checkpoints, the character
 * corpus and the report writer. Needs the lab packages (@tensorflow/tfjs, vega, vega-lite);
 * see docs/lab.md.
 */
export {
  type AdamWOptions,
  adamwStep,
  createTrainState,
  disposeTrainState,
  type TrainState,
} from './adamw.js';
export { type CharCorpus, charCorpus, grammarText, lmBatch } from './char-corpus.js';
export { loadCheckpoint, loadParams, saveCheckpoint, saveParams } from './checkpoint.js';
export { DIR_CLAIM, runDirExperiment } from './dir-experiment.js';
export { DIR_ATTRIBUTES, DIR_DEFAULTS, type DirAttribute, type DirOptions } from './dir-options.js';
export { type DirArmResult, type DirSeedResult, dirVerdicts } from './dir-verdicts.js';
export { GAP_CLAIM, runGapExperiment } from './gap-experiment.js';
export { GAP_DEFAULTS, GAP_MODES, type GapMode, type GapOptions } from './gap-options.js';
export { type GapModeResult, type GapSeedResult, gapVerdicts } from './gap-verdicts.js';
export type { Params } from './layers.js';
export { warmupCosine } from './lr-schedule.js';
export { MDM_CLAIM, runMdmExperiment } from './mdm-experiment.js';
export { MDM_DEFAULTS, MDM_FULL, type MdmOptions } from './mdm-options.js';
export { type MdmMethodResult, mdmVerdicts } from './mdm-verdicts.js';
export { type ModelConfig, parseLabConfig, type TrainConfig } from './model-config.js';
export { type LabReport, writeLabReport } from './report.js';
export {
  type HttpRewardServer,
  policyShape,
  RLVR_CLAIM,
  type RlvrExperiment,
  type RlvrHooks,
  type RlvrMetric,
  type RlvrMetricListener,
  runRlvrExperiment,
} from './rlvr-experiment.js';
export { httpBatchReward } from './rlvr-http-reward.js';
export { RLVR_DEFAULTS, RLVR_METHODS, type RlvrMethod, type RlvrOptions } from './rlvr-options.js';
export { type RlvrRunResult, rlvrVerdicts } from './rlvr-verdicts.js';
export { runSiameseNormExperiment, SIAMESENORM_CLAIM } from './siamesenorm-experiment.js';
export { SIAMESENORM_DEFAULTS, SIAMESENORM_FULL, type SiameseNormOptions } from './siamesenorm-options.js';
export type { SiameseNormRun } from './siamesenorm-run.js';
export { siameseNormVerdicts } from './siamesenorm-verdicts.js';
export { loadTf, type Tf } from './tf-runtime.js';
export { type MetricLine, type RunResult, type RunSpec, trainRun } from './training-run.js';
export { forward, initParams } from './transformer.js';
