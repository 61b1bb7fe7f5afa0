import type { BatchReward, RewardKind, RolloutToScore, Scored } from './rlvr-rewards.js';

/** Where a step's rewards are computed: in process, through `rewardkit serve` over HTTP, or both. */
export const REWARD_TRANSPORTS = ['in-process', 'http', 'both'] as const;
export type RewardTransport = (typeof REWARD_TRANSPORTS)[number];

/** The two specs every rollout is scored by: one trains, the pair measures the hack rate. */
export interface RewardPair {
  naive: BatchReward;
  verifier: BatchReward;
}

/** The sources of a run; with both, the in-process one trains and HTTP is checked against it. */
export interface StepRewardSources {
  inProcess?: RewardPair;
  http?: RewardPair;
}

export interface Disagreement {
  index: number;
  spec: RewardKind;
  in_process: number;
  http: number;
}

export interface StepRewards {
  /** The training reward per rollout; undefined where a source failed (left out of the update). */
  rewards: (number | undefined)[];
  /** Rollouts the naive reward scores 1 and the verifier does not (training source). */
  hacks: number;
  failures: { index: number; why: string }[];
  /** Both transports scored a rollout and their rewards differ (only with both). */
  disagreements: Disagreement[];
  /** Milliseconds each transport spent scoring the step (both specs). */
  ms: { in_process?: number; http?: number };
}

/**
 * Scores a step's rollouts through every source. With both transports a rollout that either
 * cannot score for the training spec is left out: its training reward could not be checked.
 */
export async function scoreStep(
  items: readonly RolloutToScore[],
  sources: StepRewardSources,
  reward: RewardKind,
  now: () => number = () => performance.now(),
): Promise<StepRewards> {
  const timed = async (pair: RewardPair) => {
    const started = now();
    const naive = await pair.naive.scoreBatch(items);
    const verifier = await pair.verifier.scoreBatch(items);
    return { scored: { naive, verifier }, ms: now() - started };
  };
  const local = sources.inProcess && (await timed(sources.inProcess));
  const remote = sources.http && (await timed(sources.http));
  const train = (local ?? remote)?.scored;
  if (train === undefined) throw new Error('scoreStep: no reward source');
  const out: StepRewards = { rewards: [], hacks: 0, failures: [], disagreements: [], ms: {} };
  if (local) out.ms.in_process = local.ms;
  if (remote) out.ms.http = remote.ms;
  for (let i = 0; i < items.length; i++) {
    const n = train.naive[i] as Scored;
    const v = train.verifier[i] as Scored;
    if ('reward' in n && 'reward' in v && n.reward === 1 && v.reward !== 1) out.hacks++;
    const why = [train[reward][i] as Scored, ...(local && remote ? [remote.scored[reward][i] as Scored] : [])]
      .map((s) => ('failed' in s ? s.failed : undefined))
      .filter((w) => w !== undefined);
    if (why.length > 0) out.failures.push({ index: i, why: why.join('; ') });
    const t = train[reward][i] as Scored;
    out.rewards.push(why.length === 0 && 'reward' in t ? t.reward : undefined);
    if (local && remote)
      for (const spec of ['naive', 'verifier'] as const) {
        const a = local.scored[spec][i] as Scored;
        const b = remote.scored[spec][i] as Scored;
        if ('reward' in a && 'reward' in b && a.reward !== b.reward)
          out.disagreements.push({ index: i, spec, in_process: a.reward, http: b.reward });
      }
  }
  return out;
}

/**
 * The reward's share of a step's time for each transport, as if it were the only one: the step
 * without any reward time, plus that transport's. With both measured in one step, each share
 * still describes a run that used only that transport.
 */
export function rewardShares(
  stepMs: number,
  ms: StepRewards['ms'],
): { reward_share_in_process?: number; reward_share_http?: number } {
  const rest = stepMs - (ms.in_process ?? 0) - (ms.http ?? 0);
  const share = (x: number) => x / (rest + x);
  return {
    ...(ms.in_process !== undefined && { reward_share_in_process: share(ms.in_process) }),
    ...(ms.http !== undefined && { reward_share_http: share(ms.http) }),
  };
}
