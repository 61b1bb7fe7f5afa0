import { etrClipBounds } from '../rl/etr-clip-bounds.js';
import { grpoAdvantages } from '../rl/grpo-advantages.js';

/** GRPO's fixed clip width, both sides. */
export const GRPO_EPS = 0.2;

/** What a method hands the loss for one batch: which rollouts enter it, their advantages and clip bounds. */
export interface GroupUpdate {
  index: number[];
  advantages: number[];
  epsLow: number[];
  epsHigh: number[];
}

/**
 * The batch's groups (`group` consecutive rollouts share a prompt) as the indices of their scored
 * rollouts: a failed rollout is left out of its group, a group with fewer than two scored rollouts
 * has no advantage and is left out whole.
 */
export function scoredGroups(rewards: readonly (number | undefined)[], group: number): number[][] {
  const out: number[][] = [];
  for (let g = 0; g < rewards.length; g += group) {
    const members = Array.from({ length: group }, (_, k) => g + k).filter((i) => rewards[i] !== undefined);
    if (members.length >= 2) out.push(members);
  }
  return out;
}

/**
 * Advantages and clip bounds of the scored rollouts, group by group (`group` consecutive rollouts
 * share a prompt). A failed rollout is left out of its group; a group with fewer than two scored
 * rollouts has no advantage and is left out whole. Both methods take population-std advantages, so
 * ETR at zero coefficients is exactly GRPO.
 */
export function groupBounds(
  method: 'grpo' | 'etr',
  rewards: readonly (number | undefined)[],
  group: number,
): GroupUpdate {
  const out: GroupUpdate = { index: [], advantages: [], epsLow: [], epsHigh: [] };
  for (const members of scoredGroups(rewards, group)) {
    const r = members.map((i) => rewards[i] as number);
    if (method === 'etr') {
      const b = etrClipBounds(r);
      out.advantages.push(...b.advantages);
      out.epsLow.push(...b.epsLow);
      out.epsHigh.push(...b.epsHigh);
    } else {
      out.advantages.push(...grpoAdvantages(r, { std: 'population' }));
      out.epsLow.push(...r.map(() => GRPO_EPS));
      out.epsHigh.push(...r.map(() => GRPO_EPS));
    }
    out.index.push(...members);
  }
  return out;
}
