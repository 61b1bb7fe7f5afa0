export {
  type EvolvedJudge,
  type EvolveJudgeOptions,
  type EvolveJudgeReport,
  evolveJudge,
  JUDGE_PHASES,
  type JudgePhase,
  type PhaseCost,
} from './evolve-judge.js';
export {
  type EvolveJudgeSeedsOptions,
  evolveJudgeSeeds,
  type SeedHeldOut,
} from './evolve-judge-seeds.js';
export { type JudgePairsOptions, judgePairs, judgmentKey } from './judge-pairs.js';
export {
  JUDGED_OUTCOMES,
  type JudgedOutcome,
  type JudgedPair,
  JudgedPairSchema,
  judgedOutcome,
} from './judged-pair.js';
export { type LabelledPair, LabelledPairSchema, type ShownPair, showPair } from './labelled-pair.js';
export { type RerunGateOptions, rerunGate } from './rerun-gate.js';
export { skillHash } from './skill-hash.js';
export { LESSONS_UNDER_TEST, skillWithLessons } from './skill-with-lessons.js';
export { type SplitAccuracy, splitAccuracy } from './split-accuracy.js';
export { MIN_PAIRS_PER_SPLIT, type PairSplit, type PairSplitName, splitPairs } from './split-pairs.js';
export { verdictTrajectory } from './verdict-trajectory.js';
