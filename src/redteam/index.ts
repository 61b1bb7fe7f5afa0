export { type Exploit, lastNumber } from './exploit.js';
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
export { type RedteamOptions, runRedteam } from './run-redteam.js';
