/**
 * `rewardkit/skills`: skill packages (load, validate, patch, write), the Skill-RM judge that reads
 * one, and the two ways to evolve one from traces (`evolveSkill`, `evolveJudge`). The analyst and
 * patch roles, prompt renderers and row schemas behind them stay inside.
 */
export {
  type AppliedSkillPatch,
  type ApplySkillPatchOptions,
  applySkillPatch,
} from './apply-skill-patch.js';
export {
  type EvolvedJudge,
  type EvolveJudgeOptions,
  type EvolveJudgeReport,
  evolveJudge,
} from './evolve-judge/index.js';
export { loadSkill } from './load-skill.js';
export { parseSkill } from './parse-skill.js';
export { parseSkillPatch } from './parse-skill-patch.js';
export { patchSkill, type SkillPatchReport } from './patch-skill.js';
export { readSkillFiles } from './read-skill-files.js';
export type { SkillFiles } from './skill-files.js';
export type { SkillFrontMatter } from './skill-front-matter.js';
export type { Skill, SkillReference, SkillResult } from './skill-package.js';
export type { SkillEdit, SkillPatch } from './skill-patch.js';
export type { SkillResource } from './skill-resource.js';
export {
  createSkillRmJudge,
  type EpisodeResult,
  judgeSkillRmPair,
  judgeSkillRmPointwise,
  runSkillRmEpisode,
  type SkillRmOptions,
  type SkillRmPair,
  type SkillRmPointwiseResult,
  type SkillRmSample,
} from './skill-rm/index.js';
export { formatViolation, type SkillViolation, type SkillViolationCode } from './skill-violation.js';
export {
  EVOLVE_MODES,
  type EvolvedSeed,
  type EvolvedSkill,
  type EvolveMode,
  type EvolveReport,
  type EvolveSeedOptions,
  type EvolveSkillOptions,
  evolveSeed,
  evolveSkill,
  readTrajectories,
  skeletonSkill,
  type Trajectory,
  type TrajectoryStep,
} from './trace2skill/index.js';
export { writeSkillFiles } from './write-skill-files.js';
