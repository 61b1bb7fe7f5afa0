/**
 * `rewardkit/lab`: the lab's experiments (`runDirExperiment`, `runGapExperiment`,
 * `runMdmExperiment`, `runRlvrExperiment`, `runSiameseNormExperiment`) with their options and verdicts, and the
 * parts to run one of your own: the transformer, AdamW, `trainRun`, checkpoints, the character
 * corpus and the report writer. Needs the lab packages (@tensorflow/tfjs,
 * @tensorflow/tfjs-backend-wasm, vega, vega-lite; docs/install.md).
 *
 * ESM resolves every static import before any code runs, so a lab module importing a missing
 * tfjs would fail with Node's resolution error. This entry imports nothing heavy statically: it
 * checks the packages first, so importing it without them throws the lab's one
 * RK_BACKEND_UNAVAILABLE error naming the install line, then loads the lab.
 */
import { importOptional } from '../core/optional-package.js';

const lab = await importOptional('lab', () => {
  import.meta.resolve('@tensorflow/tfjs');
  import.meta.resolve('@tensorflow/tfjs-backend-wasm');
  import.meta.resolve('vega');
  import.meta.resolve('vega-lite');
  return import('./lab-surface.js');
});

export const {
  adamwStep,
  createTrainState,
  disposeTrainState,
  charCorpus,
  grammarText,
  lmBatch,
  loadCheckpoint,
  loadParams,
  saveCheckpoint,
  saveParams,
  DIR_ATTRIBUTES,
  DIR_CLAIM,
  DIR_DEFAULTS,
  dirVerdicts,
  runDirExperiment,
  GAP_CLAIM,
  gapVerdicts,
  runGapExperiment,
  GAP_DEFAULTS,
  GAP_MODES,
  warmupCosine,
  MDM_CLAIM,
  mdmVerdicts,
  runMdmExperiment,
  MDM_DEFAULTS,
  MDM_FULL,
  parseLabConfig,
  writeLabReport,
  httpBatchReward,
  policyShape,
  RLVR_CLAIM,
  runRlvrExperiment,
  RLVR_DEFAULTS,
  RLVR_METHODS,
  rlvrVerdicts,
  runSiameseNormExperiment,
  SIAMESENORM_CLAIM,
  siameseNormVerdicts,
  SIAMESENORM_DEFAULTS,
  SIAMESENORM_FULL,
  loadTf,
  trainRun,
  forward,
  initParams,
} = lab;

export type {
  AdamWOptions,
  CharCorpus,
  DirArmResult,
  DirAttribute,
  DirOptions,
  DirSeedResult,
  GapMode,
  GapModeResult,
  GapOptions,
  GapSeedResult,
  HttpRewardServer,
  LabReport,
  MdmMethodResult,
  MdmOptions,
  MetricLine,
  ModelConfig,
  Params,
  RlvrExperiment,
  RlvrHooks,
  RlvrMethod,
  RlvrMetric,
  RlvrMetricListener,
  RlvrOptions,
  RlvrRunResult,
  RunResult,
  RunSpec,
  SiameseNormOptions,
  SiameseNormRun,
  Tf,
  TrainConfig,
  TrainState,
} from './lab-surface.js';
