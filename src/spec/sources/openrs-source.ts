import { z } from 'zod';
import { issuesOf, RewardKitError, type Sample } from '../../core/index.js';
import { type Constraint, ConstraintSchema } from '../../judges/openrs/constraint.js';
import { loadOpenrsFiles } from '../../judges/openrs/openrs-files.js';
import { defineJudgeKind } from '../judge-kind.js';
import type { SourceServices } from '../source-kind.js';
import { lazyPairwiseJudge } from './lazy-pairwise-judge.js';
import { onFirstUse } from './on-first-use.js';
import { againstReference, pairwiseSourceParams, withinGroup } from './pairwise-checks.js';

const ConstraintMetadataSchema = z.object({
  instruction_id_list: z.array(z.string()).optional(),
  kwargs: z.array(z.record(z.string(), z.unknown()).nullable()).optional(),
  /** Free-text constraints (or more IFEval ones), beside the IFEval lists. */
  constraints: z.array(ConstraintSchema).optional(),
});

/** The sample's constraints: its IFEval instructions (as the ifeval source reads them) and `metadata.constraints`. */
function constraintsOf(sample: Sample): Constraint[] {
  const parsed = ConstraintMetadataSchema.safeParse(sample.metadata);
  if (!parsed.success) {
    const [issue] = issuesOf(parsed.error, '');
    throw new RewardKitError(
      'RK_INPUT_SCHEMA',
      `metadata.${issue?.path ?? ''}: ${issue?.message ?? 'invalid'} (the openrs source reads metadata.instruction_id_list, metadata.kwargs and metadata.constraints)`,
    );
  }
  const ids = parsed.data.instruction_id_list ?? [];
  return [
    ...ids.map((instruction_id, i) => ({ instruction_id, kwargs: parsed.data.kwargs?.[i] ?? null })),
    ...(parsed.data.constraints ?? []),
  ];
}

const OpenrsParamsSchema = z.strictObject({
  ...pairwiseSourceParams,
  meta_rubric: z
    .string()
    .min(1)
    .meta({ placeholder: 'file' })
    .optional()
    .describe('a meta-rubric markdown file (default: the shipped one)'),
  domains: z
    .string()
    .min(1)
    .meta({ placeholder: 'dir' })
    .optional()
    .describe('a folder of domain pool markdown files (default: the shipped pools)'),
  both_orders: z.boolean().default(true).describe('judge both orders (A/B and B/A)'),
  reasks: z.number().int().nonnegative().default(2).describe('re-asks after unreadable output'),
  temperature: z.number().min(0).max(2).optional().describe('sampling temperature of the judge'),
  constraints: z
    .boolean()
    .default(true)
    .describe("use the sample's IFEval instructions and metadata.constraints as verifiable pre-checks"),
});
type OpenrsParams = z.output<typeof OpenrsParamsSchema>;

const loadOpenrs = onFirstUse(() => import('../../judges/openrs/openrs-judge.js'));

/** The judge and the sample's constraints; the markdown files are loaded once per spec. */
function openrsParts(params: OpenrsParams) {
  // Loaded here, at compile time, so a broken file fails the spec, not every sample.
  const files = loadOpenrsFiles({
    ...(params.meta_rubric !== undefined && { metaRubric: params.meta_rubric }),
    ...(params.domains !== undefined && { domains: params.domains }),
  });
  const judgeOf = (services: SourceServices) => {
    const model = services.model(params.model);
    return lazyPairwiseJudge('openrs', async () =>
      (await loadOpenrs()).createOpenrsJudge({
        model,
        files,
        bothOrders: params.both_orders,
        reasks: params.reasks,
        codeSandbox: () => services.codeSandbox(),
        ...(params.temperature !== undefined && { temperature: params.temperature }),
      }),
    );
  };
  const extras = (sample: Sample) => ({ constraints: params.constraints ? constraintsOf(sample) : [] });
  return { judgeOf, extras };
}

/** The OpenRS pairwise judge, against the reference answer or within the group. */
export const openrsSource = defineJudgeKind({
  kind: 'openrs',
  description:
    'OpenRS pairwise adaptive rubric judge against the reference (win 1, tie 0.5, loss 0) or within the group (win rate)',
  params: OpenrsParamsSchema,
  create: (params) => {
    const { judgeOf, extras } = openrsParts(params);
    return againstReference(judgeOf, params.inconsistent_score, extras);
  },
  createGroup: (params) => {
    if (params.against !== 'group') return undefined;
    const { judgeOf, extras } = openrsParts(params);
    return withinGroup(judgeOf, params.inconsistent_score, extras);
  },
  pairwise: (params, services) => openrsParts(params).judgeOf(services),
  judge: {
    reads:
      '"reference" (against reference) or "group" (against group); metadata.instruction_id_list, metadata.kwargs and metadata.constraints as pre-checks',
    examples: ['--models models.yaml --model judge --input answers.jsonl --output judged.jsonl'],
  },
});
