export {
  parseTextVerdict,
  type ShownVerdict,
  type TextVerdict,
  verdictOfWord,
} from './parse-text-verdict.js';
export {
  type PointwiseAnswer,
  type PointwiseScore,
  parseTextScore,
  pointwiseScore,
} from './pointwise-score.js';
export {
  type EpisodeAnswer,
  type EpisodeResult,
  type EpisodeStage,
  type EpisodeTrace,
  runSkillRmEpisode,
  type SkillRmRoute,
} from './run-skill-rm-episode.js';
export {
  BENCHMARK_METADATA_KEYS,
  buildSampleResources,
  isVisible,
  type ResourceIndexEntry,
  type SampleResources,
} from './sample-resources.js';
export { isLabelKey, keyWords, LABEL_WORDS, sanitizeLabels } from './sanitize-labels.js';
export { DEFAULT_SKILL_RM_CAPS, type SkillRmCaps } from './skill-rm-caps.js';
export {
  createSkillRmJudge,
  judgeSkillRmPair,
  type SkillRmOrderDetail,
  type SkillRmPair,
} from './skill-rm-judge.js';
export type { SkillRmOptions } from './skill-rm-options.js';
export { judgeSkillRmPointwise, type SkillRmPointwiseResult } from './skill-rm-pointwise.js';
export type { BindingOutcome, SkillRmRuntime } from './skill-rm-runtime.js';
export type { SkillRmSample } from './skill-rm-sample.js';
export type { ResourceEvidence, ToolCallRecord } from './skill-rm-session.js';
export { skillRmTools } from './skill-rm-tools.js';
export type { ToolError, ToolErrorCode } from './tool-error.js';
