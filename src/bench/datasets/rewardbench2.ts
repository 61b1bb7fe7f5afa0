import { z } from 'zod';
import { rewardBench2ListwiseScore } from '../../judges/benchmark-metrics.js';
import type { BenchDataset, TracedJudgment } from '../bench-dataset.js';
import type { BenchJudgment, JudgedRecord } from '../bench-record.js';
import { itemRng } from '../item-rng.js';
import { judgmentUsage } from '../judgment-usage.js';
import { judgeListwise } from '../listwise-judge.js';
import { rateAnswer } from '../rating-judge.js';
import { ratingsOutcome, sharedTopCredit } from '../ratings-outcome.js';
import { rewardBench2TiesScore, type TiesPromptRatings } from '../rewardbench2-ties.js';
import { BenchCountSchema, BenchIdSchema } from './bench-id.js';

/** RewardBench 2's six domains (the `subset` column); the score is their mean. */
export const REWARDBENCH2_DOMAINS = ['Factuality', 'Precise IF', 'Math', 'Safety', 'Focus', 'Ties'] as const;

/** A row of allenai/reward-bench-2 as published (Parquet) or exported (JSON/JSONL). */
export const RewardBench2RowSchema = z
  .object({
    id: BenchIdSchema,
    prompt: z.string(),
    chosen: z.array(z.string()).min(1),
    rejected: z.array(z.string()).min(1),
    num_correct: BenchCountSchema,
    num_incorrect: BenchCountSchema.nullish(),
    total_completions: BenchCountSchema.nullish(),
    models: z.array(z.string().nullable()).nullish(),
    subset: z.string().min(1),
  })
  .superRefine((row, ctx) => {
    if (row.chosen.length !== row.num_correct) {
      ctx.addIssue({
        code: 'custom',
        path: ['num_correct'],
        message: `is ${row.num_correct} but "chosen" has ${row.chosen.length} answers`,
      });
    }
    if (row.subset === 'Ties' && !/^(ref|tied):\d+$/.test(row.id)) {
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'a Ties id must be "ref:<n>" or "tied:<n>"' });
    }
    if (row.subset !== 'Ties' && row.chosen.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['chosen'],
        message: 'outside Ties a prompt has exactly 1 chosen answer',
      });
    }
  })
  .transform((row) => ({
    id: row.id,
    group: row.subset,
    prompt: row.prompt,
    chosen: row.chosen,
    rejected: row.rejected,
  }));
type RewardBench2Item = z.output<typeof RewardBench2RowSchema>;

async function judgeByRatings(
  item: RewardBench2Item,
  options: Parameters<typeof rateAnswer>[3],
  model: Parameters<typeof rateAnswer>[0],
): Promise<TracedJudgment> {
  const answers = [...item.chosen, ...item.rejected];
  // Ties asks for correctness only: its answers are equally right in different detail.
  const focus = item.group === 'Ties' ? 'correctness' : 'full';
  const rated = await Promise.all(
    answers.map((a) => rateAnswer(model, item.prompt, a, { ...options, focus })),
  );
  const calls = rated.flatMap((r) => r.calls);
  const ratings = rated.map((r) => r.rating);
  const reasons = rated.flatMap((r, i) => (r.reason !== undefined ? [`answer ${i + 1}: ${r.reason}`] : []));
  return {
    key: 'ratings',
    kind: 'ratings',
    outcome: ratingsOutcome(ratings, item.chosen.length),
    ratings,
    num_correct: item.chosen.length,
    ...(reasons.length > 0 && { reason: reasons.join('; ') }),
    usage: judgmentUsage(calls),
    calls,
  };
}

/** Ours: the chosen answer must rate strictly highest; a shared top is 0, an unreadable rating 0.25. */
function strictCredit(j: BenchJudgment): number {
  return rewardBench2ListwiseScore(j.outcome === 'tie' ? 'wrong' : j.outcome);
}

/** Upstream: ratings credit a top shared by k answers as 1 / k and drop unreadable ratings; listwise as ours. */
function upstreamCredit(j: BenchJudgment): number {
  return j.kind === 'ratings' ? sharedTopCredit(j.ratings ?? []) : strictCredit(j);
}

const mean = (xs: readonly number[]) => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/**
 * The Ties prompts as rated. Upstream keeps an unreadable rating as the -1 its `get_single_rating`
 * returns and scores it like any other; ours leaves such a prompt out, since -1 would rank an
 * unread correct answer below every incorrect one.
 */
function tiesPrompts(
  records: readonly JudgedRecord[],
  unreadable: 'as -1' | 'left out',
): TiesPromptRatings[] {
  return records.flatMap((r) => {
    const j = r.judgments[0];
    if (!j?.ratings || (unreadable === 'left out' && j.outcome === 'invalid')) return [];
    return [{ id: r.id, numCorrect: j.num_correct ?? 1, ratings: j.ratings.map((x) => x ?? -1) }];
  });
}

/**
 * RewardBench 2: Factuality, Precise IF, Math, Safety and Focus are scored listwise (one call, the
 * chosen answer at a seeded random position among A–D; correct 1, wrong 0, unparseable 0.25) or by
 * ratings (each answer rated 1–10 alone). The headline credits ratings as RewardBench 2's
 * `run_generative_v2.py` does (a top shared by k answers gives 1 / k, unreadable ratings are
 * dropped) and scores Ties with its `process_single_model`, an unreadable rating counting -1. Ours,
 * beside it, needs the chosen answer strictly highest (a shared top scores 0, any unreadable
 * rating makes the prompt unparseable, 0.25) and leaves Ties prompts with an unreadable rating out.
 * Both average the domains run.
 */
export const rewardBench2Dataset: BenchDataset<RewardBench2Item> = {
  name: 'rewardbench2',
  title: 'RewardBench 2',
  rowSchema: RewardBench2RowSchema,
  judge: async (item, context) => {
    const options = { reasks: context.reasks, ...(context.signal && { signal: context.signal }) };
    if (item.group === 'Ties' || context.mode === 'ratings') {
      return [await judgeByRatings(item, options, context.model)];
    }
    const chosenAt = itemRng(context.seed, item.id).int(0, 3);
    return [
      await judgeListwise(
        context.model,
        { prompt: item.prompt, chosen: item.chosen[0] as string, rejected: item.rejected },
        chosenAt,
        options,
      ),
    ];
  },
  score: (records) => {
    const byDomain = new Map<string, JudgedRecord[]>();
    for (const r of records) byDomain.set(r.group, [...(byDomain.get(r.group) ?? []), r]);
    const tiesRecords = byDomain.get('Ties') ?? [];
    const ties = {
      upstream: rewardBench2TiesScore(tiesPrompts(tiesRecords, 'as -1')),
      ours: rewardBench2TiesScore(tiesPrompts(tiesRecords, 'left out')),
    };
    const names = [...byDomain.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
    const rows = names.map((name) => {
      const list = byDomain.get(name) as JudgedRecord[];
      if (name === 'Ties')
        return { name, items: list.length, values: [ties.upstream.score, ties.ours.score] };
      const judgments = list.flatMap((r) => r.judgments);
      return {
        name,
        items: list.length,
        values: [mean(judgments.map(upstreamCredit)), mean(judgments.map(strictCredit))],
      };
    });
    const domains = rows.filter((r) => REWARDBENCH2_DOMAINS.includes(r.name as never));
    const meanOf = (column: number) => {
      const run = domains
        .map((r) => r.values[column])
        .filter((v): v is number => v !== null && v !== undefined);
      return { score: mean(run), run: domains.filter((r) => r.values[column] !== null).map((r) => r.name) };
    };
    const upstream = meanOf(0);
    const ours = meanOf(1);
    return {
      score: upstream.score,
      metric:
        'mean of the domains run (Factuality, Precise IF, Math, Safety, Focus, Ties); listwise unparseable = 0.25; ratings: a top shared by k answers = 1 / k, unreadable ratings dropped; Ties by its formula, an unreadable rating = -1',
      upstream:
        'allenai/reward-bench@05a9005 scripts/run_generative_v2.py get_judgement / get_vllm_judgement (per domain), rewardbench/utils.py process_single_model (Ties)',
      ours: [
        {
          name: 'strict',
          score: ours.score,
          metric:
            'ratings: the chosen answer must rate strictly highest (a shared top = 0, any unreadable rating = 0.25); Ties prompts with an unreadable rating left out',
        },
      ],
      table: { columns: ['score', 'strict'], headline_columns: 1, rows },
      detail: {
        ties: byDomain.has('Ties') ? ties.upstream : null,
        ties_strict: byDomain.has('Ties') ? ties.ours : null,
        ties_invalid_prompts: tiesRecords.filter((r) => r.judgments[0]?.outcome === 'invalid').length,
        domains_missing: REWARDBENCH2_DOMAINS.filter((d) => !upstream.run.includes(d)),
        other_subsets: names.filter((n) => !REWARDBENCH2_DOMAINS.includes(n as never)),
      },
    };
  },
};

const order = (name: string) => {
  const i = REWARDBENCH2_DOMAINS.indexOf(name as never);
  return i === -1 ? REWARDBENCH2_DOMAINS.length : i;
};
