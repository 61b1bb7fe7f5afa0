import { readFileSync } from 'node:fs';
import { RewardKitError, type Sample } from '../core/index.js';
import { createEvaluator, type Evaluator, parseSpec } from '../spec/index.js';
import { type AnswerFormat, goldAnswer, type RlvrTask, type RlvrTaskKind } from './rlvr-tasks.js';

/**
 * Rewards of the lab's RL loop, always through the spec evaluator (the code `rewardkit serve`
 * runs): the task's verifier by default, or the gameable "the reference appears anywhere" reward
 * of the hacking experiment (the `reference` source in `substring` mode).
 */
export const REWARD_KINDS = ['verifier', 'naive'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

// Each task's check as a spec source (the spec is JSON, which YAML reads as it is).
const CHECKS: Record<RlvrTaskKind, { kind: string; params?: Record<string, unknown> }> = {
  addition: { kind: 'math' },
  sorting: { kind: 'reference', params: { mode: 'exact' } },
  countdown: { kind: 'countdown', params: { extract: 'hash_line' } },
};
// The issue's definition exactly: the reference anywhere, inside a longer number too ("46" in "146").
const NAIVE_SPEC = 'name: lab-rlvr-naive\nsources:\n  - {kind: reference, params: {mode: substring}}\n';

// The whole response is the answer line and nothing else: what a format reward pays for.
const FORMAT_PATTERNS: Record<AnswerFormat, string> = {
  hash: '#### \\S+( \\S+)*',
  boxed: '\\\\boxed\\{[^{}]+\\}',
};

/**
 * The verifier spec's text for a task: a `--spec` file, or the built-in one — the task's check,
 * plus at `formatWeight` > 0 a format reward (a `regex` source over the whole response) in the
 * spec's weighted mean, so only a correct answer in the format scores 1.
 */
export function verifierSpecText(
  kind: RlvrTaskKind,
  specFile?: string,
  format: { answerFormat?: AnswerFormat; formatWeight?: number } = {},
): string {
  if (specFile !== undefined) return readFileSync(specFile, 'utf8');
  const { answerFormat = 'hash', formatWeight = 0 } = format;
  const sources: Record<string, unknown>[] = [{ ...CHECKS[kind], weight: 1 - formatWeight }];
  if (formatWeight > 0)
    sources.push({
      kind: 'regex',
      weight: formatWeight,
      params: { pattern: FORMAT_PATTERNS[answerFormat], mode: 'full' },
    });
  return `${JSON.stringify({ name: `lab-rlvr-${kind}`, sources })}\n`;
}

export const naiveSpecText = () => NAIVE_SPEC;

/** A rollout as a sample: sorting's exact match compares the whole answer line. */
export function rolloutSample(task: RlvrTask, response: string, id: string): Sample {
  return {
    id,
    prompt: task.prompt,
    response,
    reference: task.kind === 'sorting' ? goldAnswer(task) : task.reference,
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
  const scored = await reward.score(task, goldAnswer(task), `probe-${task.id}`);
  if (!('reward' in scored) || scored.reward !== 1)
    throw new RewardKitError(
      'RK_USAGE',
      `${what}: scores the reference answer "${goldAnswer(task)}" of "${task.prompt}" ${
        'reward' in scored ? scored.reward : `as failed (${scored.failed})`
      }, not 1: it cannot score this task`,
    );
}
