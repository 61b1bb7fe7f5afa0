export { type ActingOutcome, actingAnalysis } from './acting-analyst.js';
export {
  type AnalysisRecord,
  AnalysisRecordSchema,
  GATES,
  LESSON_TYPES,
  type Lesson,
  LessonSchema,
} from './analysis-record.js';
export {
  type FailureAnalysis,
  FailureAnalysisSchema,
  failureAnalystRole,
  SUCCESS_LESSON_LIMIT,
  SuccessAnalysisSchema,
  successAnalystRole,
} from './analyst-roles.js';
export {
  type AnalystCaps,
  type AnalystToolbox,
  type AnalystTools,
  DEFAULT_ANALYST_CAPS,
} from './analyst-toolbox.js';
export {
  type AnalyzeOptions,
  analyzeTrajectory,
  type FixEvaluator,
  trajectoryHash,
} from './analyze-trajectory.js';
export {
  type AppliedWithFixes,
  type ApplyWithFixesOptions,
  applyWithFixes,
  type FixRound,
} from './apply-with-fixes.js';
export { type EvolvedSeed, type EvolveSeedOptions, evolveSeed } from './evolve-seed.js';
export {
  EVOLVE_MODES,
  type EvolvedSkill,
  type EvolveMode,
  type EvolveReport,
  type EvolveSkillOptions,
  evolveSkill,
  type SeedSummary,
  type SkillScorer,
} from './evolve-skill.js';
export { type MapAnalyses, type MapAnalysesOptions, mapAnalyses } from './map-analyses.js';
export { patchFixerRole, patchMergerRole, patchProposerRole } from './patch-roles.js';
export {
  type ProposedPatches,
  type ProposePatchesOptions,
  proposePatches,
  renderLessons,
} from './propose-patches.js';
export { JudgeLabelSchema, type ReadJudgeTraces, readJudgeTraces } from './read-judge-traces.js';
export { type ReadTrajectories, type RejectedTrajectoryRow, readTrajectories } from './read-trajectories.js';
export {
  type ReducedPatches,
  type ReducePatchesOptions,
  reducePatches,
  renderPatchesForMerge,
} from './reduce-patches.js';
export { referenceEvaluator } from './reference-evaluator.js';
export { renderChangelog } from './render-changelog.js';
export { renderSkillFiles } from './render-skill-files.js';
export { renderTrajectory, TRAJECTORY_CHAR_LIMIT } from './render-trajectory.js';
export { skeletonSkill } from './skeleton-skill.js';
export { type SupportedEdit, type SupportedPatch, toSkillPatch } from './supported-patch.js';
export {
  type Trajectory,
  TrajectoryOutcomeSchema,
  TrajectorySchema,
  type TrajectoryStep,
  TrajectoryStepSchema,
} from './trajectory.js';
export {
  type AnchorMatch,
  type TranslatedPatch,
  translateAnchors,
  type UntranslatedEdit,
} from './translate-anchors.js';
