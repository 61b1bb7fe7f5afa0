import { z } from 'zod';
import { defineJudgeKind } from '../judge-kind.js';
import type { SourceServices } from '../source-kind.js';
import { lazyPairwiseJudge } from './lazy-pairwise-judge.js';
import { onFirstUse } from './on-first-use.js';
import { againstReference, pairwiseSourceParams, withinGroup } from './pairwise-checks.js';

const GenrmParamsSchema = z.strictObject({
  ...pairwiseSourceParams,
  votes: z.number().int().positive().default(1).describe('calls per order; the majority decides'),
  both_orders: z.boolean().default(true).describe('judge both orders (A/B and B/A)'),
  reasks: z.number().int().nonnegative().default(2).describe('re-asks after unreadable output'),
  temperature: z.number().min(0).max(2).optional().describe('sampling temperature of the judge'),
});

const loadGenrm = onFirstUse(() => import('../../judges/genrm-judge.js'));

const judgeOf = (params: z.output<typeof GenrmParamsSchema>) => (services: SourceServices) => {
  const model = services.model(params.model);
  return lazyPairwiseJudge('genrm', async () =>
    (await loadGenrm()).createGenrmJudge({
      model,
      votes: params.votes,
      bothOrders: params.both_orders,
      reasks: params.reasks,
      ...(params.temperature !== undefined && { temperature: params.temperature }),
    }),
  );
};

/** The Writing-Zero pairwise GenRM, against the reference answer or within the group. */
export const genrmSource = defineJudgeKind({
  kind: 'genrm',
  description:
    'Writing-Zero pairwise GenRM against the reference (win 1, tie 0.5, loss 0) or within the group (win rate)',
  params: GenrmParamsSchema,
  create: (params) => againstReference(judgeOf(params), params.inconsistent_score),
  createGroup: (params) =>
    params.against === 'group' ? withinGroup(judgeOf(params), params.inconsistent_score) : undefined,
  pairwise: (params, services) => judgeOf(params)(services),
  judge: {
    reads: '"reference" (against reference) or "group" (against group)',
    examples: [
      '--models models.yaml --model judge --input drafts.jsonl --output judged.jsonl',
      '--models models.yaml --model judge --against group --input rollouts.jsonl --output judged.jsonl',
    ],
  },
});
