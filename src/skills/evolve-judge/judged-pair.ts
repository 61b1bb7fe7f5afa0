import { z } from 'zod';
import { LlmUsageSchema } from '../../core/index.js';
import type { PairwiseJudgment } from '../../judges/index.js';

/**
 * A verdict against the label. Only `correct` is a right verdict: the pairs have a strictly better
 * response, so a `tie` is wrong too; `inconsistent` (the two orders disagreed: a position bias)
 * and `invalid` (the cascade gave no verdict) are failures of the judge with this skill as well.
 */
export const JUDGED_OUTCOMES = ['correct', 'wrong', 'tie', 'inconsistent', 'invalid'] as const;
export type JudgedOutcome = (typeof JUDGED_OUTCOMES)[number];

export function judgedOutcome(
  verdict: PairwiseJudgment['verdict'],
  better: 'first' | 'second',
): JudgedOutcome {
  if (verdict === 'first' || verdict === 'second') return verdict === better ? 'correct' : 'wrong';
  return verdict;
}

/**
 * One pair judged with one skill: a line of `judgments.jsonl`. `key` names the skill's content and
 * the pair as shown, so a rerun reuses the judgment only for the same skill and the same pair.
 */
export const JudgedPairSchema = z.object({
  key: z.string().min(1),
  id: z.string().min(1),
  skill: z.string().min(1),
  better: z.enum(['first', 'second']),
  verdict: z.enum(['first', 'second', 'tie', 'inconsistent', 'invalid']),
  outcome: z.enum(JUDGED_OUTCOMES),
  reason: z.string().optional(),
  decided_by: z.string().optional(),
  /** The judge's detail: Skill-RM's per-order episodes with their traces. */
  detail: z.unknown(),
  usage: LlmUsageSchema,
});
export type JudgedPair = z.output<typeof JudgedPairSchema>;
