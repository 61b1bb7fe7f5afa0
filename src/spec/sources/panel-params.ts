import { z } from 'zod';
import { isJudgeKind } from '../judge-kind.js';
import type { SourceKindRegistry } from '../source-kinds.js';

const MemberSchema = z.strictObject({
  name: z.string().min(1).optional().describe('the member in the evidence; defaults to "<kind>:<model>"'),
  kind: z.string().min(1).describe('an LLM judge kind (genrm, openrs, medical_rubric, ...)'),
  params: z.record(z.string(), z.unknown()).default({}).describe("the judge kind's own params"),
  weight: z.number().finite().positive().default(1).describe('weight under decide: weights'),
});

/** A panel member after the spec is parsed: its name settled and its params parsed by its kind. */
export interface PanelMember {
  readonly name: string;
  readonly kind: string;
  readonly params: Record<string, unknown>;
  readonly weight: number;
}

const RawPanelSchema = z.strictObject({
  members: z.array(MemberSchema).min(2).optional().describe('the judges, each its own kind and params'),
  judge: MemberSchema.omit({ name: true, weight: true })
    .optional()
    .describe('one judge kind run once per model of `models` (instead of `members`)'),
  models: z.array(z.string().min(1)).min(2).optional().describe('the models `judge` runs with'),
  decide: z
    .enum(['majority', 'weights', 'escalate'])
    .default('majority')
    .describe('majority of verdicts, weighted mean, or the escalate_to judge when the members disagree'),
  quorum: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('members that must answer for a decision (default: a majority of the members)'),
  disagreement: z
    .number()
    .min(0)
    .default(0)
    .describe('decide: escalate: escalate when the score spread (max − min) exceeds this'),
  escalate_to: MemberSchema.omit({ weight: true })
    .optional()
    .describe('the stronger judge, for decide: escalate'),
});

/**
 * The panel's params: members checked against their kinds' own schemas when the spec is parsed,
 * so a bad member param names its path (`params.members[1].params.model`) before any call.
 * The output holds `members` (from `judge` × `models` too) with parsed params, and parses again
 * to itself, as a stored spec must.
 */
export function panelParamsSchema(registry: () => SourceKindRegistry) {
  return RawPanelSchema.transform((raw, ctx) => {
    let failed = false;
    const issue = (path: (string | number)[], message: string) => {
      failed = true;
      ctx.addIssue({ code: 'custom', path, message });
    };
    // One judge, `path` naming where its kind and params were written.
    const member = (
      given: { name?: string | undefined; kind: string; params: Record<string, unknown>; weight?: number },
      path: (string | number)[],
    ): PanelMember | undefined => {
      const kind = registry().get(given.kind);
      if (!kind || !isJudgeKind(kind)) {
        const judges = [...registry().values()].filter(isJudgeKind).map((k) => k.kind);
        issue(
          [...path, 'kind'],
          `a panel member must be an LLM judge kind (${judges.join(', ')}), not "${given.kind}"`,
        );
        return undefined;
      }
      const parsed = kind.params.safeParse(given.params);
      if (!parsed.success) {
        for (const problem of parsed.error.issues)
          issue([...path, 'params', ...problem.path.map(String)], problem.message);
        return undefined;
      }
      const params = parsed.data as Record<string, unknown>;
      if (kind.createGroup?.(params) !== undefined) {
        issue(
          [...path, 'params'],
          'a panel member judges one sample at a time: comparing within the group is not supported here',
        );
        return undefined;
      }
      const model = typeof params.model === 'string' ? `:${params.model}` : '';
      return {
        name: given.name ?? `${given.kind}${model}`,
        kind: given.kind,
        params,
        weight: given.weight ?? 1,
      };
    };

    const judge = raw.judge;
    const given =
      raw.members ??
      (judge && raw.models
        ? raw.models.map((model) => ({ ...judge, params: { ...judge.params, model } }))
        : undefined);
    if (
      given === undefined ||
      (raw.members !== undefined && (judge !== undefined || raw.models !== undefined))
    ) {
      issue([], 'give either `members`, or `judge` with `models`');
      return z.NEVER;
    }
    const members = given.map((m, i) => member(m, raw.members ? ['members', i] : ['judge']));
    const escalation = raw.escalate_to && member(raw.escalate_to, ['escalate_to']);
    if ((raw.decide === 'escalate') !== (raw.escalate_to !== undefined)) {
      issue(['escalate_to'], '`escalate_to` is needed by decide: escalate, and only by it');
    }
    if (raw.decide !== 'weights' && given.some((m) => 'weight' in m && m.weight !== 1)) {
      issue(['decide'], 'member weights count only under decide: weights');
    }
    const quorum = raw.quorum ?? Math.floor(given.length / 2) + 1;
    if (quorum > given.length) issue(['quorum'], `quorum ${quorum} is more than the ${given.length} members`);
    const names = members.flatMap((m) => (m ? [m.name] : []));
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated !== undefined)
      issue(['members'], `two members are named "${repeated}": give each a \`name\``);
    if (failed) return z.NEVER;
    return {
      members: members as PanelMember[],
      decide: raw.decide,
      quorum,
      disagreement: raw.disagreement,
      ...(escalation && {
        escalate_to: { name: escalation.name, kind: escalation.kind, params: escalation.params },
      }),
    };
  });
}

export type PanelParams = z.output<ReturnType<typeof panelParamsSchema>>;
