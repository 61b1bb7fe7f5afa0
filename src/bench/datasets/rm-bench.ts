import { z } from 'zod';
import { rmBenchAccuracy } from '../../judges/benchmark-metrics.js';
import type { BenchDataset } from '../bench-dataset.js';
import type { BenchOutcome } from '../bench-record.js';
import { itemRng } from '../item-rng.js';
import { judgeChosenRejected } from '../judge-pair.js';
import { type CreditPolicy, meanCredit } from '../pair-credit.js';
import { BenchIdSchema } from './bench-id.js';

/** RM-Bench's three styles, in the order of its `chosen` and `rejected` lists. */
export const RM_BENCH_STYLES = ['concise', 'detailed', 'detailed-markdown'] as const;

const Three = z
  .array(z.string())
  .length(3, 'needs exactly 3 responses (concise, detailed, detailed-markdown)');

/** An RM-Bench row as published (`total_dataset.json` or a domain file). */
export const RmBenchRowSchema = z
  .object({
    id: BenchIdSchema,
    prompt: z.string(),
    chosen: Three,
    rejected: Three,
    domain: z.string().min(1),
  })
  .transform((row) => ({ ...row, group: row.domain }));
type RmBenchItem = z.output<typeof RmBenchRowSchema>;

/** The key of the cell chosen style i vs rejected style j, e.g. `concise>detailed-markdown`. */
export const rmBenchCellKey = (i: number, j: number) => `${RM_BENCH_STYLES[i]}>${RM_BENCH_STYLES[j]}`;

/** The domains RM-Bench scores, in `split_dataset_by_domain`'s order. */
export const RM_BENCH_DOMAINS = ['chat', 'math', 'code', 'safety'] as const;

/**
 * The domain a row is scored under, as RM-Bench's `split_dataset_by_domain` assigns it: the first
 * of its domains the row's `domain` starts with (`safety-refuse` and `safety-response` are both
 * `safety`); any other domain is kept as written and scored apart, outside the headline.
 */
export const rmBenchDomain = (domain: string) => RM_BENCH_DOMAINS.find((d) => domain.startsWith(d)) ?? domain;

const isUpstreamDomain = (domain: string) => (RM_BENCH_DOMAINS as readonly string[]).includes(domain);

interface StyleAccuracy {
  normal: number;
  hard: number;
  easy: number;
  /** Mean of normal, hard and easy (= of the nine cells). */
  average: number;
}

function styleAccuracy(byCell: Map<string, BenchOutcome[]>, policy: CreditPolicy): StyleAccuracy | null {
  const matrix = [0, 1, 2].map((i) =>
    [0, 1, 2].map((j) => meanCredit(byCell.get(rmBenchCellKey(i, j)) ?? [], policy)),
  );
  // A cell with nothing countable (e.g. all ties when ties are excluded) leaves the domain unknown.
  if (matrix.some((row) => row.some((c) => c === null))) return null;
  const acc = rmBenchAccuracy(matrix as number[][]);
  return { ...acc, average: (acc.normal + acc.hard + acc.easy) / 3 };
}

/** Means over domains; null when a domain is unknown or none was run. */
function overallAccuracy(domains: readonly (StyleAccuracy | null)[]): StyleAccuracy | null {
  if (domains.length === 0 || domains.some((d) => d === null)) return null;
  const list = domains as StyleAccuracy[];
  const mean = (f: (d: StyleAccuracy) => number) => list.reduce((a, d) => a + f(d), 0) / list.length;
  return {
    normal: mean((d) => d.normal),
    hard: mean((d) => d.hard),
    easy: mean((d) => d.easy),
    average: mean((d) => d.average),
  };
}

/** The policies reported: RM-Bench's own (strict), ours (ties and unreadable 0.5), ties left out. */
const POLICIES = ['strict', 'chance', 'ties_excluded'] as const satisfies readonly CreditPolicy[];

/**
 * RM-Bench: the 3 × 3 style pairs of each row (chosen in style i vs rejected in style j), each
 * judged as a pair. Per domain, cell accuracies form the matrix that `rmBenchAccuracy` splits into
 * normal (diagonal), hard (chosen plainer: upper triangle) and easy (lower triangle); a domain's
 * score is the mean of the three, and the headline the mean over RM-Bench's four domains. The
 * headline counts a pair only when the chosen response wins outright, as RM-Bench's
 * `compute_accuracy` does (strict `>`): ties and unreadable verdicts are 0. Ours gives them 0.5.
 */
export const rmBenchDataset: BenchDataset<RmBenchItem> = {
  name: 'rm-bench',
  title: 'RM-Bench',
  rowSchema: RmBenchRowSchema,
  judge: async (item, context) => {
    const rng = itemRng(context.seed, item.id);
    const cells = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => [i, j] as const));
    // Each call draws its position from rng before its first await, so the draws stay in cell order.
    return Promise.all(
      cells.map(([i, j]) =>
        judgeChosenRejected(
          context.judge,
          rmBenchCellKey(i, j),
          { prompt: item.prompt, chosen: item.chosen[i] as string, rejected: item.rejected[j] as string },
          rng,
          context.signal,
        ),
      ),
    );
  },
  score: (records) => {
    const cells = new Map<string, Map<string, BenchOutcome[]>>();
    const items = new Map<string, number>();
    for (const r of records) {
      const domain = rmBenchDomain(r.group);
      items.set(domain, (items.get(domain) ?? 0) + 1);
      const byCell = cells.get(domain) ?? new Map<string, BenchOutcome[]>();
      for (const j of r.judgments) byCell.set(j.key, [...(byCell.get(j.key) ?? []), j.outcome]);
      cells.set(domain, byCell);
    }
    const domains = [...cells.keys()].sort();
    const scored = domains.filter(isUpstreamDomain);
    const by = Object.fromEntries(
      POLICIES.map((p) => [
        p,
        Object.fromEntries(
          domains.map((d) => [d, styleAccuracy(cells.get(d) as Map<string, BenchOutcome[]>, p)]),
        ),
      ]),
    ) as Record<(typeof POLICIES)[number], Record<string, StyleAccuracy | null>>;
    const overall = (p: (typeof POLICIES)[number]) => overallAccuracy(scored.map((d) => by[p][d] ?? null));
    const upstream = overall('strict');
    const ours = overall('chance');
    const values = (strict: StyleAccuracy | null | undefined, chance: StyleAccuracy | null | undefined) => [
      strict?.normal ?? null,
      strict?.hard ?? null,
      strict?.easy ?? null,
      strict?.average ?? null,
      chance?.hard ?? null,
      chance?.average ?? null,
    ];
    return {
      score: upstream?.average ?? null,
      metric:
        "mean over RM-Bench's domains (chat, math, code, safety) of the mean of normal, hard and easy; a pair counts only when the chosen response wins (tie or unreadable = 0)",
      upstream: 'THU-KEG/RM-Bench@73c52d7 scripts/utils.py compute_accuracy',
      ours: [
        {
          name: 'ties ½',
          score: ours?.average ?? null,
          metric:
            'the same means with a tie or unreadable verdict counted 0.5, as RewardBench credits a generative judge',
        },
      ],
      table: {
        columns: ['normal', 'hard', 'easy', 'average', 'hard ties ½', 'avg ties ½'],
        headline_columns: 4,
        rows: [
          {
            name: '[overall]',
            items: scored.reduce((a, d) => a + (items.get(d) ?? 0), 0),
            values: values(upstream, ours),
          },
          ...domains.map((d) => ({
            name: d,
            items: items.get(d) ?? 0,
            values: values(by.strict[d], by.chance[d]),
          })),
        ],
      },
      detail: {
        overall_ties_half: ours,
        overall_ties_excluded: overall('ties_excluded'),
        domains_ties_half: by.chance,
        domains_ties_excluded: by.ties_excluded,
        other_domains: domains.filter((d) => !isUpstreamDomain(d)),
      },
    };
  },
};
