export {
  type EvolvedJudge,
  type EvolveJudgeOptions,
  type EvolveJudgeReport,
  evolveJudge,
  JUDGE_PHASES,
  type JudgePhase,
  type PhaseCost,
} from './evolve-judge.js';
export { type JudgePairsOptions, judgePairs, judgmentKey } from './judge-pairs.js';
export {
  JUDGED_OUTCOMES,
  type JudgedOutcome,
  type JudgedPair,
  JudgedPairSchema,
  judgedOutcome,
} from './judged-pair.js';
export { type LabelledPair, LabelledPairSchema, type ShownPair, showPair } from './labelled-pair.js';
export { skillHash } from './skill-hash.js';
export { type SplitAccuracy, splitAccuracy } from './split-accuracy.js';
export { MIN_PAIRS_PER_SPLIT, type PairSplit, type PairSplitName, splitPairs } from './split-pairs.js';
export { verdictTrajectory } from './verdict-trajectory.js';
