/**
 * `rewardkit/selfplay`: search self-play (SSP). `runSelfplay` runs rounds over a seed file;
 * `runSspRound`, the search agent, the problem pool and the proposer/solver rewards are the
 * parts. Prompt builders, question rules and tag parsing stay inside.
 */
export { ProblemPool, type VerifiedTask } from './problem-pool.js';
export { type ProposerRewardMode, proposerReward, solveRate } from './proposer-reward.js';
export { type RagCheckInput, type RagCheckResult, ragCheck } from './rag-check.js';
export { runSelfplay, type SelfplayRunOptions, type SelfplaySummary } from './run-selfplay.js';
export { type SolverScore, scoreSolverAnswer } from './score-solver-answer.js';
export { runSearchAgent, type SearchAgentOptions, type SearchTrajectory } from './search-agent.js';
export { solverReward } from './solver-reward.js';
export type { SspRecord } from './ssp-record.js';
export { runSspRound, type SspModels, type SspOptions, type SspSeed } from './ssp-round.js';
