import { RewardKitError } from '../../core/index.js';
import type { CallTrace, ChatModel } from '../../llm/index.js';
import type { RoleOutcome } from '../judge-role.js';
import { aggregateRubric, combineVotes, type VoteRule } from './aggregate-rubric.js';
import { type RubricGradingInput, rubricBatchRole, rubricCriterionRole } from './rubric-grading-role.js';
import { gradeScale, type RubricItem, rubricItems } from './rubric-items.js';
import type { Rubric } from './rubric-schema.js';

export interface RubricJudgeInput {
  /** The user's prompt (untrusted). */
  readonly prompt: string;
  /** The response under judgment (untrusted). */
  readonly response: string;
  /** The sample's reference answer; `reference` mode needs one. */
  readonly reference?: string;
  readonly rubric: Rubric;
}

export interface RubricJudgeOptions {
  readonly model: ChatModel;
  /** `batch` (default): one call grades every criterion; `per_criterion`: one call each. */
  readonly calls?: 'batch' | 'per_criterion';
  /** Independent judgments of each criterion (default 1), combined by `vote`. */
  readonly votes?: number;
  readonly vote?: VoteRule;
  /** Re-asks after unreadable output (default 2). */
  readonly reasks?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
}

/** One vote on one criterion: the grade as the judge gave it and its reason, or why none could be read. */
export type RubricVote =
  | { readonly grade: number | string; readonly value: number; readonly reason: string }
  | { readonly invalid: string };

export interface GradedRubricItem extends RubricItem {
  /** The combined vote, normalized to [0, 1]. */
  readonly value: number;
  readonly votes: readonly RubricVote[];
}

export type RubricJudgment =
  | {
      readonly status: 'ok';
      /** In [0, 1], aggregated in code from the criteria's values. */
      readonly score: number;
      readonly mode: Rubric['mode'];
      readonly aggregate: Rubric['aggregate'];
      readonly criteria: readonly GradedRubricItem[];
      readonly calls: CallTrace[];
    }
  /** Some criterion has no readable vote after the re-asks (or the backend failed): never a score. */
  | {
      readonly status: 'invalid';
      readonly reason: string;
      readonly raw: string | null;
      readonly calls: CallTrace[];
    };

type Reply = { id: string; reason: string; grade: number | string };

/**
 * Pointwise judging against a user's rubric: each criterion (in one batched call, or one call
 * each) is graded `votes` times; the votes are combined per criterion and the criteria aggregated
 * by the rubric's rule, all in code. A criterion with no readable vote makes the judgment invalid.
 */
export async function judgeRubric(
  input: RubricJudgeInput,
  options: RubricJudgeOptions,
): Promise<RubricJudgment> {
  const { rubric } = input;
  if (rubric.mode === 'reference' && (input.reference === undefined || input.reference.trim() === ''))
    throw new RewardKitError(
      'RK_SOURCE_FAILED',
      'a reference-mode rubric grades against the sample\'s "reference", and this sample has none',
    );
  const votes = options.votes ?? 1;
  if (!Number.isInteger(votes) || votes < 1)
    throw new RewardKitError('RK_USAGE', `votes must be a positive integer, got ${votes}`);
  const items = rubricItems(rubric);
  const scale = gradeScale(rubric);
  const base = {
    prompt: input.prompt,
    response: input.response,
    ...(rubric.mode === 'reference' && input.reference !== undefined && { reference: input.reference }),
    rubric,
    scale,
  };
  const callOptions = (vote: number) => ({
    model: options.model,
    ...(options.reasks !== undefined && { reasks: options.reasks }),
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    // Votes are distinct requests (and cache entries); a single judgment keeps the plain request.
    ...(votes > 1 && { variant: vote }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  const perCriterion = options.calls === 'per_criterion';
  const groups: RubricGradingInput[] = perCriterion
    ? items.map((item) => ({ ...base, items: [item] }))
    : [{ ...base, items }];
  const asked = await Promise.all(
    groups.flatMap((group) =>
      Array.from({ length: votes }, async (_, vote) => ({
        group,
        outcome: await grade(group, perCriterion, callOptions(vote)),
      })),
    ),
  );
  const calls = asked.flatMap(({ outcome }) => outcome.calls);
  const byId = new Map<string, RubricVote[]>(items.map((item) => [item.id, []]));
  for (const { group, outcome } of asked) {
    const replies = outcome.status === 'ok' ? new Map(outcome.value.map((r) => [r.id, r])) : undefined;
    for (const item of group.items) {
      // A readable reply grades every id of its call exactly once (its schema says so).
      const reply = replies?.get(item.id) as Reply | undefined;
      byId
        .get(item.id)
        ?.push(
          outcome.status === 'invalid' || reply === undefined
            ? { invalid: outcome.status === 'invalid' ? outcome.reason : `${item.id} not graded` }
            : { grade: reply.grade, value: scale.normalize(reply.grade), reason: reply.reason },
        );
    }
  }
  const graded: GradedRubricItem[] = [];
  for (const item of items) {
    const itemVotes = byId.get(item.id) ?? [];
    const read = itemVotes.flatMap((v) => ('value' in v ? [v.value] : []));
    if (read.length === 0) {
      const why = itemVotes.map((v) => ('invalid' in v ? v.invalid : '')).at(-1) ?? 'no call';
      const raw = calls.at(-1)?.raw ?? null;
      return {
        status: 'invalid',
        reason: `criterion ${item.id} "${item.name}" has no readable grade: ${why}`,
        raw,
        calls,
      };
    }
    graded.push({ ...item, value: combineVotes(read, options.vote ?? 'majority'), votes: itemVotes });
  }
  const passAt = rubric.mode === 'checklist' ? 1 : rubric.criterion_pass_at;
  const score = aggregateRubric(graded, rubric.aggregate, passAt);
  return { status: 'ok', score, mode: rubric.mode, aggregate: rubric.aggregate, criteria: graded, calls };
}

/** One call of the configured shape, read as a list of `{id, reason, grade}`. */
async function grade(
  input: RubricGradingInput,
  perCriterion: boolean,
  options: Parameters<typeof rubricBatchRole>[1],
): Promise<RoleOutcome<Reply[]>> {
  const [only] = input.items;
  if (perCriterion && only !== undefined) {
    const outcome = await rubricCriterionRole(input, options);
    return outcome.status === 'ok' ? { ...outcome, value: [{ id: only.id, ...outcome.value }] } : outcome;
  }
  const outcome = await rubricBatchRole(input, options);
  return outcome.status === 'ok' ? { ...outcome, value: outcome.value.grades } : outcome;
}
