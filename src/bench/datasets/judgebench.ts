import { z } from 'zod';
import { judgeBenchCorrect, type OrderOutcome } from '../../judges/benchmark-metrics.js';
import type { BenchDataset } from '../bench-dataset.js';
import type { BenchOutcome } from '../bench-record.js';
import { tracedPairJudgment } from '../judge-pair.js';
import { BenchIdSchema } from './bench-id.js';

type Label = 'A>B' | 'B>A' | 'A=B';

/** A JudgeBench pair as published (JSONL): `response_A` is the pair's first response. */
export const JudgeBenchRowSchema = z
  .object({
    pair_id: BenchIdSchema,
    original_id: z.union([z.string(), z.number(), z.bigint()]).nullish(),
    source: z.string().min(1),
    question: z.string(),
    response_model: z.string().nullish(),
    response_A: z.string(),
    response_B: z.string(),
    label: z.enum(['A>B', 'B>A', 'A=B']),
  })
  .transform((row) => ({
    id: row.pair_id,
    group: row.source,
    prompt: row.question,
    first: row.response_A,
    second: row.response_B,
    label: row.label as Label,
  }));
type JudgeBenchItem = z.output<typeof JudgeBenchRowSchema>;

const FLIP: Record<Label, Label> = { 'A>B': 'B>A', 'B>A': 'A>B', 'A=B': 'A=B' };

/** One ordered comparison against the label; an unreadable comparison is a tie (it adds 0). */
export function judgeBenchOrderOutcome(
  label: Label,
  winner: 'first' | 'second' | 'tie' | undefined,
): OrderOutcome {
  const decision =
    winner === 'first' ? 'A>B' : winner === 'second' ? 'B>A' : winner === 'tie' ? 'A=B' : undefined;
  if (decision === label) return 'label';
  if (decision === FLIP[label]) return 'reverse';
  return 'tie';
}

/** The item's outcome from its per-order outcomes: correct iff the total is positive, wrong iff negative. */
export function judgeBenchOutcome(orders: readonly OrderOutcome[]): BenchOutcome {
  if (judgeBenchCorrect(orders)) return 'correct';
  const reversed = orders.map((o) => (o === 'label' ? 'reverse' : o === 'reverse' ? 'label' : o));
  return judgeBenchCorrect(reversed) ? 'wrong' : 'tie';
}

/** JudgeBench's four categories, by the prefix of each source. */
export function judgeBenchCategory(source: string): string {
  if (source.startsWith('mmlu-pro')) return 'knowledge';
  if (source.startsWith('livebench-reasoning')) return 'reasoning';
  if (source.startsWith('livebench-math')) return 'math';
  if (source.startsWith('livecodebench')) return 'coding';
  return 'other';
}

/**
 * JudgeBench: both orders as the judge runs them; +1 per order matching the label, −1 per order
 * matching the reverse, 0 otherwise (a tie or an unreadable order); correct iff the total is
 * positive. Accuracy is over all pairs (an invalid pair is not correct), per source and category.
 */
export const judgeBenchDataset: BenchDataset<JudgeBenchItem> = {
  name: 'judgebench',
  title: 'JudgeBench',
  rowSchema: JudgeBenchRowSchema,
  judge: async (item, context) => {
    const pair = { prompt: item.prompt, first: item.first, second: item.second };
    const judgment = await context.judge.judge(pair, context.signal ? { signal: context.signal } : undefined);
    const orders = judgment.comparisons.map((c) => judgeBenchOrderOutcome(item.label, c.winner));
    const outcome = judgment.verdict === 'invalid' ? 'invalid' : judgeBenchOutcome(orders);
    const better = item.label === 'A>B' ? 'first' : item.label === 'B>A' ? 'second' : 'none';
    return [tracedPairJudgment('pair', pair, judgment, better, outcome)];
  },
  score: (records) => {
    const tally = (groupOf: (source: string) => string) => {
      const by = new Map<string, { items: number; correct: number; wrong: number }>();
      for (const r of records) {
        const g = groupOf(r.group);
        const t = by.get(g) ?? { items: 0, correct: 0, wrong: 0 };
        t.items++;
        if (r.judgments[0]?.outcome === 'correct') t.correct++;
        if (r.judgments[0]?.outcome === 'wrong') t.wrong++;
        by.set(g, t);
      }
      return [...by].sort(([a], [b]) => a.localeCompare(b));
    };
    const row = ([name, t]: [string, { items: number; correct: number; wrong: number }]) => ({
      name,
      items: t.items,
      values: [
        t.items > 0 ? t.correct / t.items : null,
        t.correct + t.wrong > 0 ? t.correct / (t.correct + t.wrong) : null,
      ],
    });
    const overall = tally(() => 'all').map(row)[0];
    return {
      score: overall?.values[0] ?? null,
      metric:
        'share of pairs whose order total is positive (+1 matches the label, −1 the reverse, per order); an unreadable pair is not correct',
      upstream: 'ScalerLab/JudgeBench@e2c52c2 utils/metrics.py compute_final_metrics (reverse_order)',
      ours: [
        {
          name: 'ties excluded',
          score: overall?.values[1] ?? null,
          metric: 'the same, over the pairs whose order total is not 0',
        },
      ],
      table: {
        columns: ['accuracy', 'ties excluded'],
        headline_columns: 1,
        rows: [
          ...tally(judgeBenchCategory).map((e) => row([`[${e[0]}]`, e[1]])),
          ...tally((s) => s).map(row),
        ],
      },
      detail: { accuracy_ties_excluded: overall?.values[1] ?? null },
    };
  },
};
