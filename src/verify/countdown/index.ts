export {
  type CountdownOptions,
  type CountdownVerdict,
  countdownCheck,
  evaluateCountdown,
} from './countdown.js';
