export { type Exploit, lastNumber } from './exploit.js';
export { loadExploitModule } from './exploit-module.js';
export { type ExploitRegistry, exploits } from './exploit-registry.js';
export {
  type ExploitSummary,
  type ExploitTrial,
  type LiftExample,
  type LiftOptions,
  liftsReward,
  summariseLift,
  unscored,
} from './lift-stats.js';
export type { PassCost, RedteamReport } from './redteam-report.js';
export {
  ORIGINAL,
  type RedteamOptions,
  type RedteamResult,
  runRedteam,
  type Scoring,
  type ScoringFailure,
} from './run-redteam.js';
