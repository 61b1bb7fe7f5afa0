import type { RewardKind } from './mutual-information.js';

/**
 * The most distinct reward values the audit still treats as labels (pass/fail, a rubric's few
 * levels). Past it the reward is continuous: the plug-in over a table with many reward columns
 * would rest on a handful of samples per cell, so DIR's CLUB bound is used instead.
 */
export const MAX_DISCRETE_REWARD_LEVELS = 5;

/** Whether a reward is used as labels (`discrete`) or as a number (`continuous`). */
export const rewardKindOf = (rewards: readonly number[]): RewardKind =>
  new Set(rewards).size <= MAX_DISCRETE_REWARD_LEVELS ? 'discrete' : 'continuous';
