import { z } from 'zod';
import { promptText, RewardKitError } from '../../core/index.js';
import { EVPV_AGGREGATORS } from '../../judges/evpv/evpv-aggregators.js';
import type { llmEvpvRoles } from '../../judges/evpv/llm-evpv-roles.js';
import { VisualConstraintsSchema } from '../../judges/evpv/visual-constraints.js';
import { judgeCallsOf } from '../../llm/judge-call-of.js';
import { usageOf } from '../../llm/usage-of.js';
import { defineJudgeKind } from '../judge-kind.js';
import { SourceFailedError } from '../source-failed-error.js';
import { onFirstUse } from './on-first-use.js';

const loadEvpv = onFirstUse(async () => ({
  ...(await import('../../judges/evpv/llm-evpv-roles.js')),
  ...(await import('../../judges/evpv/score-evpv-problem.js')),
}));

const params = z.strictObject({
  model: z
    .string()
    .min(1)
    .meta({ placeholder: 'name', short: '-m' })
    .describe('the model of every role not named below (a name from the models file)'),
  extractor: z
    .string()
    .min(1)
    .meta({ placeholder: 'name' })
    .optional()
    .describe('the model that reads the visual premises off the image'),
  auditor: z
    .string()
    .min(1)
    .meta({ placeholder: 'name' })
    .optional()
    .describe("the model that audits the response's premises"),
  step_judge: z
    .string()
    .min(1)
    .meta({ placeholder: 'name' })
    .optional()
    .describe('the model that judges each reasoning step'),
  aggregator: z
    .enum(EVPV_AGGREGATORS as ['mean', ...Array<(typeof EVPV_AGGREGATORS)[number]>])
    .default('mean')
    .describe('how the gated step scores become one score'),
  reasks: z.number().int().nonnegative().default(2).describe('re-asks after unreadable output'),
  pass_at: z.number().min(-1).max(1).default(0.5).describe('the verdict is pass at or above this score'),
});

/** The image a sample carries: `metadata.constraints` (already extracted) or `metadata.image`. */
function visualInput(metadata: Record<string, unknown>) {
  if (metadata.constraints !== undefined) {
    const parsed = VisualConstraintsSchema.safeParse(metadata.constraints);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RewardKitError(
        'RK_SOURCE_FAILED',
        `field "metadata.constraints${issue?.path.length ? `.${issue.path.join('.')}` : ''}": ${issue?.message ?? 'invalid'}`,
      );
    }
    return { constraints: parsed.data };
  }
  const image = metadata.image;
  if (typeof image === 'string' && image !== '') return { image };
  if (typeof image === 'object' && image !== null) return { image: image as Record<string, unknown> };
  throw new RewardKitError(
    'RK_SOURCE_FAILED',
    'field "metadata.image": missing — give a path, data URL, http(s) URL or symbolic {"facts": {...}}, or metadata.constraints',
  );
}

/** The response's steps scored by the EVPV pipeline: step judgments gated by the premise audit, aggregated. */
export const evpvSource = defineJudgeKind({
  kind: 'evpv',
  description:
    'EVPV process reward: step judgments gated by the reliability of the visual premises (audited against the image), aggregated',
  params,
  create: (p) => {
    // One description per image and question for the whole run, shared by every sample that asks.
    let roles: ReturnType<typeof llmEvpvRoles> | undefined;
    return async (sample, { services, signal }) => {
      const { llmEvpvRoles, scoreEvpvProblem } = await loadEvpv();
      roles ??= llmEvpvRoles(
        {
          extractor: services.model(p.extractor ?? p.model),
          auditor: services.model(p.auditor ?? p.model),
          stepJudge: services.model(p.step_judge ?? p.model),
        },
        { reasks: p.reasks },
      );
      const scored = await scoreEvpvProblem(
        {
          id: sample.id,
          question: promptText(sample),
          ...visualInput(sample.metadata),
          candidates: [{ output: sample.response }],
        },
        roles(signal),
        { baseDir: '.' },
      );
      const usage = usageOf(scored.calls);
      const calls = judgeCallsOf(scored.calls);
      if (scored.status === 'failed') {
        throw new SourceFailedError(scored.error, { detail: { raw: scored.raw ?? null }, usage, calls });
      }
      const [candidate] = scored.candidates;
      if (candidate?.status !== 'ok') {
        throw new SourceFailedError(`field "response": ${candidate?.error ?? 'no candidate'}`, {
          usage,
          calls,
        });
      }
      const { output: _, ...detail } = candidate;
      // A reward is never made of a judge's unreadable output: the evaluation CLI keeps the paper's
      // p = 0 and all-−1 conventions in its report, but the spec source fails the sample instead.
      const unreadable =
        'reason' in candidate.audit
          ? `the premise audit was never readable: ${candidate.audit.reason}`
          : candidate.steps_invalid !== undefined
            ? `the step judgment was never readable: ${candidate.steps_invalid.reason}`
            : undefined;
      if (unreadable !== undefined) {
        throw new SourceFailedError(unreadable, {
          detail: { ...detail, constraints: scored.constraints, extraction: scored.extraction },
          usage,
          calls,
        });
      }
      const score = candidate.scores[p.aggregator];
      return {
        score,
        verdict: score >= p.pass_at ? 'pass' : 'fail',
        detail: { ...detail, constraints: scored.constraints, extraction: scored.extraction },
        usage,
        calls,
        reason: `p = ${candidate.audit.p} over ${candidate.checklist.length} premise(s); ${p.aggregator} of gated steps [${candidate.gated_scores.join(', ')}]`,
      };
    };
  },
  judge: {
    reads: 'metadata.image (a path, URL or data URL) or metadata.constraints (premises already extracted)',
    examples: ['--models models.yaml --model vlm --input solutions.jsonl --output scored.jsonl'],
  },
});
