import type * as tf from '@tensorflow/tfjs';
import { stepwiseGroupAdvantages } from '../rl/stepwise-advantages.js';
import { evaluateCountdown } from '../verify/countdown/index.js';
import type { Params } from './layers.js';
import { GRPO_EPS, scoredGroups } from './rlvr-group-bounds.js';
import { type PolicyShape, rolloutLogprobs } from './rlvr-policy.js';
import { answerLine, type RlvrTask } from './rlvr-tasks.js';
import { decodeChars, EOS, encodeChars } from './rlvr-tokenizer.js';

/**
 * AFRL's answer-first format in the lab [our reading for verifiable tasks]: the answer line first,
 * then ` as ` and a short explanation whose consistency with the answer is checkable:
 * - addition `#### 42 as 17+25`: the operands restated, their sum must be the answer;
 * - sorting `#### 1 2 3 as 3 1 2`: the list restated, its sort must be the answer;
 * - countdown `#### 25+3*7 as 46`: the value reached, the answer expression must evaluate to it.
 * The tokenizer has no newline and no `=`, hence ` as `.
 */
export const AFRL_SEPARATOR = ' as ';

/** The gold answer-first completion of a task (SFT warm start and the SFT auxiliary loss). */
export function afrlCompletion(task: RlvrTask): string {
  const explanation =
    task.kind === 'countdown' ? String(task.target) : task.prompt.slice(task.prompt.indexOf(' ') + 1);
  return `${answerLine(task.reference)}${AFRL_SEPARATOR}${explanation}`;
}

/** A completion split at the first separator; no separator is broken structure. */
export function splitAfrl(text: string): { answer: string; explanation?: string } {
  const at = text.indexOf(AFRL_SEPARATOR);
  return at < 0
    ? { answer: text }
    : { answer: text.slice(0, at), explanation: text.slice(at + AFRL_SEPARATOR.length) };
}

/** Whether the explanation agrees with the answer line it follows (never with the task's gold). */
export function afrlConsistent(kind: RlvrTask['kind'], answer: string, explanation: string): boolean {
  const prefix = answerLine('');
  if (!answer.startsWith(prefix)) return false;
  const value = answer.slice(prefix.length);
  if (kind === 'addition') {
    const m = /^(\d+)\+(\d+)$/.exec(explanation);
    return m !== null && /^\d+$/.test(value) && Number(m[1]) + Number(m[2]) === Number(value);
  }
  if (kind === 'sorting') {
    if (!/^\d( \d)*$/.test(explanation)) return false;
    return [...explanation.split(' ')].sort((a, b) => Number(a) - Number(b)).join(' ') === value;
  }
  return /^\d+$/.test(explanation) && evaluateCountdown(value) === Number(explanation);
}

/**
 * AFRL's two step rewards: step 1 the reward source's score of the answer line (correctness),
 * step 2 1[the explanation is consistent with it]; broken structure (no separator) scores 0 on both.
 */
export function afrlStepRewards(kind: RlvrTask['kind'], text: string, correctness: number): [number, number] {
  const { answer, explanation } = splitAfrl(text);
  if (explanation === undefined) return [0, 0];
  return [correctness, afrlConsistent(kind, answer, explanation) ? 1 : 0];
}

/**
 * Per-token advantages [kept, width]: a rollout's answer-line tokens take its step-1 advantage, the
 * separator, explanation and end token its step-2 one (all step 1 when the structure is broken).
 * Steps are normalized per group on their own (src/rl's stepwise GRPO, population std as the lab's
 * GRPO). Failed rollouts are left out, as in every method.
 */
export function afrlLabStep(
  tasks: readonly RlvrTask[],
  rollouts: readonly { tokens: readonly number[]; text: string }[],
  rewards: readonly (number | undefined)[],
  group: number,
  width: number,
): { index: number[]; advantages: number[][]; epsLow: number[]; epsHigh: number[] } {
  const index: number[] = [];
  const advantages: number[][] = [];
  for (const members of scoredGroups(rewards, group)) {
    const steps = stepwiseGroupAdvantages(
      members.map((i) =>
        afrlStepRewards(
          (tasks[i] as RlvrTask).kind,
          (rollouts[i] as { text: string }).text,
          rewards[i] as number,
        ),
      ),
      { std: 'population' },
    );
    members.forEach((i, k) => {
      const r = rollouts[i] as { tokens: readonly number[]; text: string };
      const answerChars = splitAfrl(r.text).answer.length;
      const [a1, a2] = steps[k] as [number, number];
      // Token t belongs to the answer while the text before it is shorter than the answer line.
      const row = Array.from({ length: width }, (_, t) =>
        t < r.tokens.length && decodeChars(r.tokens.slice(0, t)).length >= answerChars ? a2 : a1,
      );
      advantages.push(row);
      index.push(i);
    });
  }
  return { index, advantages, epsLow: index.map(() => GRPO_EPS), epsHigh: index.map(() => GRPO_EPS) };
}

/** The response the reward sources score for a method: AFRL's answer line alone, otherwise all of it. */
export function scoredResponse(method: string, text: string): string {
  return method === 'afrl' ? splitAfrl(text).answer : text;
}

/** Gold answer-first sequences of the step's tasks, as targets for the SFT auxiliary term. */
export function afrlGold(tasks: readonly RlvrTask[]): { prompts: string[]; targets: { tokens: number[] }[] } {
  const unique = [...new Map(tasks.map((t) => [t.prompt, t])).values()];
  return {
    prompts: unique.map((t) => t.prompt),
    targets: unique.map((t) => ({ tokens: [...encodeChars(afrlCompletion(t)), EOS] })),
  };
}

/**
 * AFRL's mode-balanced loss on tensors: L = L_GRPO + λ·L_SFT, L_SFT the mean negative log-prob
 * of every gold token (`modeBalancedLoss` in src/rl is the number reference).
 */
export function modeBalancedLossTensor(
  grpoLoss: tf.Scalar,
  goldLogprobs: tf.Tensor2D,
  goldMask: tf.Tensor2D,
  lambda: number,
): tf.Scalar {
  const sft = goldLogprobs.mul(goldMask).sum().div(goldMask.sum()).neg();
  return grpoLoss.add(sft.mul(lambda)) as tf.Scalar;
}

/** The policy loss plus λ times the SFT loss on the step's gold answer-first sequences. */
export function withSftAuxiliary(
  policy: tf.Scalar,
  params: Params,
  shape: PolicyShape,
  tasks: readonly RlvrTask[],
  lambda: number,
): tf.Scalar {
  const gold = afrlGold(tasks);
  const { logprobs, mask } = rolloutLogprobs(params, shape, gold.prompts, gold.targets, 1);
  return modeBalancedLossTensor(policy, logprobs, mask, lambda);
}
