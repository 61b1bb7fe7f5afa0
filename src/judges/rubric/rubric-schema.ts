import { z } from 'zod';

const name = z.string().trim().min(1).describe('a short name, unique within the rubric');
const description = z.string().trim().min(1).describe('what the judge checks');
const weight = z
  .number()
  .positive()
  .refine(Number.isFinite, 'must be finite')
  .optional()
  .describe('relative weight, > 0 (weighted_mean and share only)');

const CriterionSchema = z.strictObject({ name, description, weight });
const ChecklistItemSchema = z.strictObject({
  name,
  description: description.describe('a yes/no question about the response'),
  weight,
});

const total = z
  .number()
  .positive()
  .optional()
  .describe('when given, the weights are points that must add up to it (a marking scheme out of 100)');
const criterionPassAt = z
  .number()
  .min(0)
  .max(1)
  .default(0.5)
  .describe('all_must_pass: a criterion passes at or above this normalized grade');

/**
 * The rubric a response is judged against, by `mode`:
 * - `criteria`: each criterion graded 0..`points`;
 * - `checklist`: yes/no items, all must pass (RaR's checklist) or the weighted share of yes;
 * - `likert`: each criterion rated on one scale whose every point has an anchor;
 * - `reference`: criteria graded against the sample's reference (not met / partially / fully).
 * Grades are normalized to [0, 1] per criterion, then aggregated; the weight rules are in
 * `rubricWeightProblems`.
 */
export const RubricSchema = z
  .discriminatedUnion('mode', [
    z.strictObject({
      mode: z.literal('criteria'),
      criteria: z.array(CriterionSchema).min(1, 'a rubric needs at least one criterion'),
      points: z.number().int().min(1).max(100).default(10).describe('each criterion is graded 0..points'),
      aggregate: z.enum(['weighted_mean', 'min', 'all_must_pass']).default('weighted_mean'),
      criterion_pass_at: criterionPassAt,
      total,
    }),
    z.strictObject({
      mode: z.literal('checklist'),
      items: z.array(ChecklistItemSchema).min(1, 'a checklist needs at least one item'),
      aggregate: z.enum(['all_must_pass', 'share']).default('all_must_pass'),
      total,
    }),
    z.strictObject({
      mode: z.literal('likert'),
      criteria: z.array(CriterionSchema).min(1, 'a rubric needs at least one criterion'),
      anchors: z
        .record(z.string().regex(/^-?\d+$/, 'anchor keys are integer scale points'), z.string().trim().min(1))
        .describe('what each point of the scale means: {1: "...", ..., 5: "..."}'),
      aggregate: z.enum(['weighted_mean', 'min', 'all_must_pass']).default('weighted_mean'),
      criterion_pass_at: criterionPassAt,
      total,
    }),
    z.strictObject({
      mode: z.literal('reference'),
      criteria: z.array(CriterionSchema).min(1, 'a rubric needs at least one criterion'),
      aggregate: z.enum(['weighted_mean', 'min', 'all_must_pass']).default('weighted_mean'),
      criterion_pass_at: criterionPassAt,
      total,
    }),
  ])
  .superRefine((rubric, ctx) => {
    for (const problem of rubricProblems(rubric)) ctx.addIssue({ code: 'custom', ...problem });
  });
export type Rubric = z.output<typeof RubricSchema>;
export type RubricInput = z.input<typeof RubricSchema>;
/** How the graded criteria become one score, always in code. */
export type RubricAggregate = Rubric['aggregate'];

type RubricShape = Omit<Rubric, 'criteria' | 'items'> & {
  criteria?: ReadonlyArray<{ name: string; weight?: number | undefined }>;
  items?: ReadonlyArray<{ name: string; weight?: number | undefined }>;
  anchors?: Record<string, string>;
};

/**
 * What the schema's shape cannot say, each with the field it belongs to:
 * - names are unique;
 * - weights are given for every criterion or for none (none: equal weights);
 * - weights are only given where the aggregation uses them (`weighted_mean`, `share`): under
 *   `min` and `all_must_pass` they would be ignored silently;
 * - with `total`, the weights are points and must add up to it;
 * - a Likert scale has an anchor for every point from its lowest to its highest, at least two.
 */
export function rubricProblems(rubric: RubricShape): { path: (string | number)[]; message: string }[] {
  const field = rubric.mode === 'checklist' ? 'items' : 'criteria';
  const list = (rubric.mode === 'checklist' ? rubric.items : rubric.criteria) ?? [];
  const problems: { path: (string | number)[]; message: string }[] = [];
  const seen = new Map<string, number>();
  list.forEach((c, i) => {
    const first = seen.get(c.name);
    if (first !== undefined)
      problems.push({
        path: [field, i, 'name'],
        message: `name "${c.name}" is used twice (also ${field}.${first}); names must be unique`,
      });
    seen.set(c.name, i);
  });
  const weighted = list.filter((c) => c.weight !== undefined).length;
  const usesWeights = rubric.aggregate === 'weighted_mean' || rubric.aggregate === 'share';
  if (weighted > 0 && !usesWeights) {
    const i = list.findIndex((c) => c.weight !== undefined);
    problems.push({
      path: [field, i, 'weight'],
      message: `weights have no effect under aggregate "${rubric.aggregate}"; remove them or use ${rubric.mode === 'checklist' ? 'share' : 'weighted_mean'}`,
    });
  } else if (weighted > 0 && weighted < list.length) {
    const i = list.findIndex((c) => c.weight === undefined);
    problems.push({
      path: [field, i, 'weight'],
      message: `give a weight to every ${field === 'items' ? 'item' : 'criterion'} or to none (${weighted} of ${list.length} have one)`,
    });
  }
  if (rubric.total !== undefined) {
    const sum = list.reduce((s, c) => s + (c.weight ?? 0), 0);
    if (weighted < list.length || !usesWeights)
      problems.push({
        path: ['total'],
        message: `total needs a weight on every ${field} entry and a weighted aggregate`,
      });
    else if (Math.abs(sum - rubric.total) > 1e-9 * rubric.total)
      problems.push({
        path: ['total'],
        message: `the weights add up to ${sum}, not to total ${rubric.total}`,
      });
  }
  if (rubric.mode === 'likert' && rubric.anchors !== undefined) {
    const points = Object.keys(rubric.anchors)
      .map(Number)
      .filter(Number.isInteger)
      .sort((a, b) => a - b);
    const low = points[0];
    const high = points.at(-1);
    if (low === undefined || high === undefined || high - low < 1)
      problems.push({ path: ['anchors'], message: 'a Likert scale needs anchors for at least two points' });
    else if (high - low + 1 !== points.length) {
      const missing = Array.from({ length: high - low + 1 }, (_, k) => low + k).filter(
        (p) => !points.includes(p),
      );
      problems.push({
        path: ['anchors'],
        message: `every point from ${low} to ${high} needs an anchor; missing ${missing.join(', ')}`,
      });
    }
  }
  return problems;
}
