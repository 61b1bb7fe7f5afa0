import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { promptText, RewardKitError, referencesOf, type Sample } from '../../core/index.js';
import type { PairInput } from '../../judges/index.js';
import { judgeCallsOf } from '../../llm/judge-call-of.js';
import { usageOf } from '../../llm/usage-of.js';
import type { Skill, SkillRmOptions } from '../../skills/index.js';
import { loadSkill } from '../../skills/load-skill.js';
import { DEFAULT_SKILL_RM_CAPS } from '../../skills/skill-rm/skill-rm-caps.js';
import { formatViolation } from '../../skills/skill-violation.js';
import { defineJudgeKind } from '../judge-kind.js';
import { SourceFailedError } from '../source-failed-error.js';
import type { SourceCheck, SourceServices } from '../source-kind.js';
import { lazyPairwiseJudge } from './lazy-pairwise-judge.js';
import { onFirstUse } from './on-first-use.js';
import {
  againstReference,
  PairwiseAgainstSchema,
  pairwiseSourceParams,
  withinGroup,
} from './pairwise-checks.js';
import { skillRmRuntime } from './skill-rm-bindings.js';

/** The Skill-RM agent (its runtime, tools and cascade), loaded when a sample is first judged. */
const loadSkillRm = onFirstUse(() => import('../../skills/skill-rm/index.js'));

/** The skill shipped with the package (from both `src/spec/sources` and `dist/spec/sources`). */
export const SHIPPED_REWARD_JUDGE_SKILL = fileURLToPath(
  new URL('../../../skills/reward-judge/', import.meta.url),
);

const cap = (value: number, what: string) => z.number().int().positive().default(value).describe(what);

const SkillRmParamsSchema = z.strictObject({
  ...pairwiseSourceParams,
  against: PairwiseAgainstSchema.describe(
    'pairwise mode: what the response is compared with: "reference" (the sample\'s reference answer) or "group" (every other rollout of its group, by win rate)',
  ),
  mode: z
    .enum(['pointwise', 'pairwise'])
    .default('pointwise')
    .describe(
      'pointwise: the response scored in [0, 1] (for RL); pairwise: the response compared with the reference or the group, like genrm',
    ),
  skill: z
    .string()
    .min(1)
    .optional()
    .describe('a skill package directory (default: the shipped skills/reward-judge)'),
  both_orders: z.boolean().default(true).describe('pairwise: judge both orders (A/B and B/A)'),
  benchmark_visible: z
    .boolean()
    .default(false)
    .describe(
      "show benchmark_visible resources (the sample's reference, tests, checklist and the verifiers that read them): the samples carry benchmark data for the judge",
    ),
  max_views: cap(
    DEFAULT_SKILL_RM_CAPS.maxViews,
    'distinct resources the judge may view per sample; past it, a tool error tells it to finalize',
  ),
  max_resource_chars: cap(
    DEFAULT_SKILL_RM_CAPS.maxResourceChars,
    'characters shown of one resource (the rest is cut, and the cut is shown and warned)',
  ),
  max_runs: cap(
    DEFAULT_SKILL_RM_CAPS.maxRuns,
    'runtime runs (run_resource and sandbox together) per sample; past it, a tool error tells the judge to finalize',
  ),
  max_steps: cap(
    DEFAULT_SKILL_RM_CAPS.maxSteps,
    'agent turns per sample; then one forced final_answer turn (the termination cascade)',
  ),
  reasks: z
    .number()
    .int()
    .nonnegative()
    .default(2)
    .describe('re-asks of the direct judge (the last step of the cascade) after unreadable output'),
  temperature: z.number().min(0).max(2).optional().describe('sampling temperature of the judge'),
});
type SkillRmParams = z.output<typeof SkillRmParamsSchema>;

/** The skill package of the params, loaded whole or refused with every violation. */
export function loadJudgeSkill(dir: string | undefined): Skill {
  const path = dir ?? SHIPPED_REWARD_JUDGE_SKILL;
  const result = loadSkill(path);
  if (!result.ok) {
    throw new RewardKitError(
      'RK_SPEC_INVALID',
      `skill_rm: the skill ${path} is not valid:\n${result.violations.map((v) => formatViolation(v, path)).join('\n')}`,
    );
  }
  return result.skill;
}

/** The sample's checklist: metadata.checklist, metadata.constraints and its IFEval instructions. */
function checklistOf(sample: Sample): unknown[] {
  const m = sample.metadata;
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  const ids = list(m.instruction_id_list);
  const kwargs = list(m.kwargs);
  return [
    ...list(m.checklist),
    ...list(m.constraints),
    ...ids.map((instruction_id, i) => ({ instruction_id, kwargs: kwargs[i] ?? null })),
  ];
}

function optionsOf(params: SkillRmParams, skill: Skill, services: SourceServices): SkillRmOptions {
  return {
    model: services.model(params.model),
    skill,
    runtime: skillRmRuntime(services, { model: params.model, reasks: params.reasks }),
    caps: {
      maxViews: params.max_views,
      maxResourceChars: params.max_resource_chars,
      maxRuns: params.max_runs,
      maxSteps: params.max_steps,
    },
    benchmarkVisible: params.benchmark_visible,
    reasks: params.reasks,
    ...(params.temperature !== undefined && { temperature: params.temperature }),
  };
}

const judgeOf = (params: SkillRmParams, skill: Skill) => (services: SourceServices) => {
  const options = optionsOf(params, skill, services);
  return lazyPairwiseJudge('skill_rm', async () =>
    (await loadSkillRm()).createSkillRmJudge({ ...options, bothOrders: params.both_orders }),
  );
};

const extras = (sample: Sample) => {
  const checklist = checklistOf(sample);
  return {
    metadata: sample.metadata,
    ...(checklist.length > 0 && { constraints: checklist as PairInput['constraints'] }),
  };
};

/**
 * Pointwise: the response scored by the Skill-RM episode. A cascade that gives no score fails
 * the sample (invalid evidence with the trace and usage), as every judge kind does; the spec's
 * `on_error` decides what the row gets. (The library's `judgeSkillRmPointwise` instead returns
 * its `failureScore`, 0.5, with `invalid: true`.)
 */
function pointwise(params: SkillRmParams, skill: Skill): SourceCheck {
  return async (sample, { services, signal }) => {
    const references = referencesOf(sample);
    const checklist = checklistOf(sample);
    const { judgeSkillRmPointwise } = await loadSkillRm();
    const result = await judgeSkillRmPointwise(
      {
        prompt: promptText(sample),
        response: sample.response,
        ...(references.length > 0 && { reference: references }),
        metadata: sample.metadata,
        ...(checklist.length > 0 && { checklist }),
      },
      { ...optionsOf(params, skill, services), signal },
    );
    const usage = usageOf(result.calls);
    const calls = judgeCallsOf(result.calls);
    const detail = {
      skill: skill.name,
      route: result.route ?? null,
      from: result.from ?? null,
      trace: result.trace,
    };
    if (result.invalid) {
      throw new SourceFailedError(
        `the skill_rm judge gave no readable score: ${result.reason ?? 'unknown reason'}`,
        { detail, usage, calls },
      );
    }
    return {
      score: result.score,
      verdict: result.score >= 0.5 ? 'pass' : 'fail',
      detail,
      usage,
      calls,
      reason: `skill_rm (${result.route}): ${result.reason ?? `score ${result.score}`}`,
      ...(result.warnings.length > 0 && { warnings: result.warnings }),
    };
  };
}

/** Skill-RM: a judge that opens a skill and gathers evidence through tool calls. */
export const skillRmSource = defineJudgeKind({
  kind: 'skill_rm',
  description:
    'Skill-RM: an LLM judge that opens a skill (instructions + resources) and gathers evidence by tool calls; pointwise score in [0, 1], or pairwise against the reference / the group',
  params: SkillRmParamsSchema,
  create: (params) => {
    const skill = loadJudgeSkill(params.skill);
    return params.mode === 'pointwise'
      ? pointwise(params, skill)
      : againstReference(judgeOf(params, skill), params.inconsistent_score, extras);
  },
  createGroup: (params) =>
    params.mode === 'pairwise' && params.against === 'group'
      ? withinGroup(judgeOf(params, loadJudgeSkill(params.skill)), params.inconsistent_score, extras)
      : undefined,
  pairwise: (params, services) => judgeOf(params, loadJudgeSkill(params.skill))(services),
  judge: {
    reads:
      '"reference" and metadata (tests, metadata.checklist, metadata.constraints, IFEval instructions) as per-sample resources; label keys are removed, benchmark data shown only with --benchmark-visible',
    examples: [
      '--models models.yaml --model judge --input answers.jsonl --output judged.jsonl',
      '--models models.yaml --model judge --benchmark-visible --input math.jsonl --output judged.jsonl',
      '--models models.yaml --model judge --mode pairwise --against group --input rollouts.jsonl --output judged.jsonl',
    ],
  },
});
