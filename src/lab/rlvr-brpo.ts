import type { PairwiseJudge, PairwiseJudgment } from '../judges/index.js';
import { brpoGroup } from '../rl/brpo-group.js';
import { GRPO_EPS, type GroupUpdate, scoredGroups } from './rlvr-group-bounds.js';

/**
 * The lab's pairwise judge for BRPO: programmatic, over the reward source's scores. The lab's
 * tasks are verifiable, so the judge a writing task would need (a model) is replaced by "the
 * rollout the verifier scores higher wins", shown in both orders like a model judge. Equal scores
 * are a tie, which BRPO counts as a non-win: the challenger gets −1.
 */
export function verifierPairwiseJudge(scoreOf: (response: string) => number): PairwiseJudge {
  return {
    name: 'lab-verifier-pairwise',
    async judge(pair): Promise<PairwiseJudgment> {
      const [a, b] = [scoreOf(pair.first), scoreOf(pair.second)];
      const winner = a > b ? 'first' : a < b ? 'second' : 'tie';
      return {
        verdict: winner,
        comparisons: [
          { order: 'forward', vote: 0, winner },
          { order: 'backward', vote: 0, winner },
        ],
        calls: [],
      };
    },
  };
}

export interface BrpoLabStep extends GroupUpdate {
  /** Groups the skew filter dropped (their advantages are all 0). */
  filtered: number;
}

/**
 * One BRPO step of the lab's RL loop through src/rl's `brpoGroup`: per group, a reference picked
 * with a seeded RNG (`groupSeed(g)`), every other scored rollout judged against it in both orders,
 * R_i = +1 only for a clean sweep, A_i = R_i, and the skew filter (|ΣR|/G > 0.6 → all 0). A rollout
 * the reward source failed on is left out of its group (never scored 0); GRPO's fixed clip.
 */
export async function brpoLabStep(
  texts: readonly string[],
  rewards: readonly (number | undefined)[],
  group: number,
  groupSeed: (g: number) => number,
): Promise<BrpoLabStep> {
  const out: BrpoLabStep = { index: [], advantages: [], epsLow: [], epsHigh: [], filtered: 0 };
  for (const members of scoredGroups(rewards, group)) {
    const scores = new Map(members.map((i) => [texts[i] as string, rewards[i] as number]));
    const judge = verifierPairwiseJudge((response) => scores.get(response) as number);
    const result = await brpoGroup({ prompt: '', responses: members.map((i) => texts[i] as string) }, judge, {
      seed: groupSeed(Math.floor((members[0] as number) / group)),
    });
    out.index.push(...members);
    out.advantages.push(...result.advantages);
    out.epsLow.push(...members.map(() => GRPO_EPS));
    out.epsHigh.push(...members.map(() => GRPO_EPS));
    if (result.filtered) out.filtered++;
  }
  return out;
}
