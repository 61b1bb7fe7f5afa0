export type { EditOutcome, SkipCause } from './apply-skill-edit.js';
export {
  type AppliedSkillPatch,
  type ApplySkillPatchOptions,
  applySkillPatch,
  type SkippedEdit,
} from './apply-skill-patch.js';
export * from './evolve-judge/index.js';
export { loadSkill } from './load-skill.js';
export { type DroppedEdit, pairCreatedReferences } from './pair-created-references.js';
export { BODY_LINE_LIMIT, parseSkill, REFERENCE_LINE_LIMIT } from './parse-skill.js';
export { type ParsedSkillPatch, parseSkillPatch } from './parse-skill-patch.js';
export { patchSkill, type SkillPatchReport } from './patch-skill.js';
export { readSkillFiles } from './read-skill-files.js';
export { reduceChunkSizes, reduceChunks } from './reduce-chunks.js';
export { RESOURCES_FILE, SKILL_FILE, type SkillFiles } from './skill-files.js';
export {
  SKILL_DESCRIPTION_MAX,
  SKILL_NAME_MAX,
  type SkillFrontMatter,
  SkillFrontMatterSchema,
} from './skill-front-matter.js';
export type { Skill, SkillReference, SkillResult } from './skill-package.js';
export {
  SKILL_EDIT_OPS,
  type SkillEdit,
  type SkillEditOp,
  SkillEditSchema,
  type SkillPatch,
  SkillPatchSchema,
} from './skill-patch.js';
export {
  DECISION_IMPACTS,
  JUDGE_BINDINGS,
  RESOURCE_BINDINGS,
  RESOURCE_COSTS,
  RESOURCE_IMPLEMENTATIONS,
  RESOURCE_TYPES,
  ResourcesFileSchema,
  SAMPLE_FIELDS,
  type SkillResource,
  SkillResourceSchema,
  VERIFIER_BINDINGS,
  VISIBILITY_LEVELS,
} from './skill-resource.js';
export * from './skill-rm/index.js';
export { formatViolation, type SkillViolation, type SkillViolationCode } from './skill-violation.js';
export {
  type AnalysisRecord,
  AnalysisRecordSchema,
  type AnalyzeOptions,
  type AnchorMatch,
  type AppliedWithFixes,
  type ApplyWithFixesOptions,
  analyzeTrajectory,
  applyWithFixes,
  EVOLVE_MODES,
  type EvolvedSeed,
  type EvolvedSkill,
  type EvolveMode,
  type EvolveReport,
  type EvolveSeedOptions,
  type EvolveSkillOptions,
  evolveSeed,
  evolveSkill,
  type FailureAnalysis,
  FailureAnalysisSchema,
  type FixEvaluator,
  type FixRound,
  failureAnalystRole,
  GATES,
  JudgeLabelSchema,
  LESSON_TYPES,
  type Lesson,
  LessonSchema,
  type MapAnalyses,
  type MapAnalysesOptions,
  mapAnalyses,
  type ProposedPatches,
  type ProposePatchesOptions,
  patchFixerRole,
  patchMergerRole,
  patchProposerRole,
  proposePatches,
  type ReadJudgeTraces,
  type ReadTrajectories,
  type ReducedPatches,
  type ReducePatchesOptions,
  type RejectedTrajectoryRow,
  readJudgeTraces,
  readTrajectories,
  reducePatches,
  referenceEvaluator,
  renderChangelog,
  renderLessons,
  renderPatchesForMerge,
  renderSkillFiles,
  renderTrajectory,
  type SeedSummary,
  type SkillScorer,
  SUCCESS_LESSON_LIMIT,
  SuccessAnalysisSchema,
  type SupportedEdit,
  type SupportedPatch,
  skeletonSkill,
  successAnalystRole,
  TRAJECTORY_CHAR_LIMIT,
  type Trajectory,
  TrajectoryOutcomeSchema,
  TrajectorySchema,
  type TrajectoryStep,
  TrajectoryStepSchema,
  type TranslatedPatch,
  toSkillPatch,
  trajectoryHash,
  translateAnchors,
  type UntranslatedEdit,
} from './trace2skill/index.js';
export { writeSkillFiles } from './write-skill-files.js';
