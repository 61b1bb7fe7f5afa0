import { readFileSync } from 'node:fs';
import { RewardKitError, type Sample } from '../core/index.js';
import { createEvaluator, type Evaluator, parseSpec } from '../spec/index.js';
import { answerLine, type RlvrTask, type RlvrTaskKind } from './rlvr-tasks.js';

/**
 * Rewards of the lab's RL loop, always through the spec evaluator (the code `rewardkit serve`
 * runs): the task's verifier by default, or the gameable "the reference appears anywhere" reward
 * of the hacking experiment (the `reference` source in `substring` mode).
 */
export const REWARD_KINDS = ['verifier', 'naive'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

const VERIFIER_SPECS: Record<RlvrTaskKind, string> = {
  addition: 'name: lab-rlvr-addition\nsources:\n  - {kind: math}\n',
  sorting: 'name: lab-rlvr-sorting\nsources:\n  - {kind: reference, params: {mode: exact}}\n',
  countdown: 'name: lab-rlvr-countdown\nsources:\n  - {kind: countdown, params: {extract: hash_line}}\n',
};
// The issue's definition exactly: the reference anywhere, inside a longer number too ("46" in "146").
const NAIVE_SPEC = 'name: lab-rlvr-naive\nsources:\n  - {kind: reference, params: {mode: substring}}\n';

/** The verifier spec's text for a task (the built-in one, or a `--spec` file). */
export function verifierSpecText(kind: RlvrTaskKind, specFile?: string): string {
  return specFile === undefined ? VERIFIER_SPECS[kind] : readFileSync(specFile, 'utf8');
}

export const naiveSpecText = () => NAIVE_SPEC;

/** A rollout as a sample: sorting's exact match compares the whole answer line. */
export function rolloutSample(task: RlvrTask, response: string, id: string): Sample {
  return {
    id,
    prompt: task.prompt,
    response,
    reference: task.kind === 'sorting' ? answerLine(task.reference) : task.reference,
    metadata: task.numbers !== undefined ? { numbers: task.numbers, target: task.target as number } : {},
  };
}

/** One rollout's reward, or why the spec could not score it (left out of the update, never 0). */
export type Scored = { reward: number } | { failed: string };

export interface RewardFn {
  score(task: RlvrTask, response: string, id: string): Promise<Scored>;
  close(): Promise<void>;
}

/** A rollout to score: its task, the policy's text, and a sample id unique in the run. */
export interface RolloutToScore {
  task: RlvrTask;
  response: string;
  id: string;
}

/** A spec's rewards for a whole step's rollouts at once, in order (in process, or one HTTP request). */
export interface BatchReward {
  scoreBatch(items: readonly RolloutToScore[]): Promise<Scored[]>;
  close(): Promise<void>;
}

/** The in-process evaluator, one rollout after the other (what the loop did before transports). */
export function inProcessBatch(reward: RewardFn): BatchReward {
  return {
    async scoreBatch(items) {
      const out: Scored[] = [];
      for (const x of items) out.push(await reward.score(x.task, x.response, x.id));
      return out;
    },
    close: () => reward.close(),
  };
}

export function rewardFromSpec(text: string, file: string): RewardFn {
  const evaluator: Evaluator = createEvaluator(parseSpec(text, file), { traces: false });
  return {
    async score(task, response, id) {
      const result = await evaluator.evaluate(rolloutSample(task, response, id));
      if (result.status !== 'ok' || result.reward === null)
        return { failed: result.errors.join('; ') || `status ${result.status}` };
      return { reward: result.reward };
    },
    close: () => evaluator.close(),
  };
}

/**
 * Before any training: the spec must score the task's own reference answer 1. A spec that cannot
 * (the wrong source, a reference it cannot read) would train on noise; it is a usage error.
 */
export async function probeSpec(reward: RewardFn, task: RlvrTask, what: string): Promise<void> {
  const scored = await reward.score(task, answerLine(task.reference), `probe-${task.id}`);
  if (!('reward' in scored) || scored.reward !== 1)
    throw new RewardKitError(
      'RK_USAGE',
      `${what}: scores the reference answer "${answerLine(task.reference)}" of "${task.prompt}" ${
        'reward' in scored ? scored.reward : `as failed (${scored.failed})`
      }, not 1: it cannot score this task`,
    );
}
