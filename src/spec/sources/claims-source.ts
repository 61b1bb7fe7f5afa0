import { z } from 'zod';
import { promptText, RewardKitError } from '../../core/index.js';
import { ClaimModeSchema, ClaimTieSchema } from '../../judges/claims/claim.js';
import { ClaimAggregateSchema } from '../../judges/claims/claim-aggregate-schema.js';
import { type ClaimDocument, ClaimDocumentsSchema } from '../../judges/claims/claim-document.js';
import { judgeCallsOf } from '../../llm/judge-call-of.js';
import { usageOf } from '../../llm/usage-of.js';
import { defineJudgeKind } from '../judge-kind.js';
import { SourceFailedError } from '../source-failed-error.js';
import { claimRows } from './claims-rows.js';
import { onFirstUse } from './on-first-use.js';

const loadMarch = onFirstUse(() => import('../../judges/claims/march-claim-check.js'));

const params = z
  .strictObject({
    model: z
      .string()
      .min(1)
      .meta({ placeholder: 'name', short: '-m' })
      .optional()
      .describe('the model of every role not named below (a name from the models file)'),
    proposer: z
      .string()
      .min(1)
      .meta({ placeholder: 'name' })
      .optional()
      .describe('the model that splits the response into claims'),
    checker: z
      .string()
      .min(1)
      .meta({ placeholder: 'name' })
      .optional()
      .describe('the model that answers each claim from the documents'),
    matcher: z
      .string()
      .min(1)
      .meta({ placeholder: 'name' })
      .optional()
      .describe("the semantic-equivalence judge of claims mode (default: the checker's model)"),
    mode: ClaimModeSchema.meta({ placeholder: 'mode' })
      .default('numeric')
      .describe('numeric: the numbers and entities of the answer; claims: every factual claim'),
    k: z.number().int().positive().meta({ short: '-k' }).default(3).describe('Checker runs per claim'),
    reward: ClaimAggregateSchema.meta({ placeholder: 'name' })
      .default('zero_tolerance')
      .describe('how the claim verdicts become the reward'),
    tie: ClaimTieSchema.meta({ placeholder: 'rule' })
      .default('fault')
      .describe('what a claim whose checker runs split evenly counts as'),
    safe_k: z.number().positive().default(64).describe('K of SAFE F1@K (reward safe_f1)'),
    pass_at: z.number().min(0).max(1).default(0.5).describe('the verdict is pass at or above this score'),
    max_claims: z.number().int().positive().optional().describe('claims checked at most per response'),
    reasks: z.number().int().nonnegative().default(2).describe('re-asks after unreadable output'),
    checker_temperature: z
      .number()
      .min(0)
      .max(2)
      .default(0.7)
      .describe('sampling temperature of the Checker runs'),
    seed: z.number().int().default(0).describe('seed of the Checker runs'),
  })
  .refine((p) => (p.proposer ?? p.model) !== undefined && (p.checker ?? p.model) !== undefined, {
    message:
      'name the models: "model" for every role, or "proposer" and "checker" (and "matcher" in claims mode)',
    path: ['model'],
  });

/** The sample's `metadata.documents`, or [] when it has none (the check records that as invalid). */
function documentsOf(metadata: Record<string, unknown>): ClaimDocument[] {
  if (metadata.documents === undefined) return [];
  const parsed = ClaimDocumentsSchema.safeParse(metadata.documents);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new RewardKitError(
    'RK_INPUT_SCHEMA',
    `metadata.documents${issue?.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') ?? ''}: ${issue?.message ?? 'invalid'} (each document is a string or {"title"?, "text"})`,
  );
}

/** MARCH's claim check of a RAG answer against its documents, or one of the presets over the same claims. */
export const claimsSource = defineJudgeKind({
  kind: 'claims',
  description:
    'MARCH claim check: a Proposer splits the response into claims, k Checker runs answer them from metadata.documents blind to the response; zero-tolerance / proportional reward or RAGAS, FActScore, SAFE F1@K, RefChecker',
  params,
  create:
    (p) =>
    async (sample, { services, signal }) => {
      const documents = documentsOf(sample.metadata);
      const role = (name: string | undefined) => services.model(name ?? (p.model as string));
      const checker = role(p.checker);
      const { marchClaimCheck } = await loadMarch();
      const judgment = await marchClaimCheck(
        { question: promptText(sample), answer: sample.response, documents },
        {
          proposer: role(p.proposer),
          checker,
          matcher: p.matcher === undefined && p.model === undefined ? checker : role(p.matcher),
          mode: p.mode,
          k: p.k,
          tie: p.tie,
          aggregate: p.reward,
          safeK: p.safe_k,
          passAt: p.pass_at,
          reasks: p.reasks,
          checkerTemperature: p.checker_temperature,
          seed: p.seed,
          signal,
          ...(p.max_claims !== undefined && { maxClaims: p.max_claims }),
        },
      );
      const usage = usageOf(judgment.calls);
      const calls = judgeCallsOf(judgment.calls);
      // The calls go to the evidence's own `calls`, not again in the detail.
      const { calls: _traces, ...detail } = judgment;
      if (judgment.status === 'invalid') {
        throw new SourceFailedError(
          `the claim check could not be made (${judgment.stage}): ${judgment.reason}`,
          { detail, usage, calls },
        );
      }
      const faults = judgment.claims.filter((c) => c.verdict === 'fault').length;
      return {
        score: judgment.score,
        verdict: judgment.verdict === 'no_claims' ? 'abstain' : judgment.verdict,
        detail,
        usage,
        calls,
        reason:
          judgment.verdict === 'no_claims'
            ? 'the Proposer found no claims to check (no_claims): scored 0'
            : `${p.reward}: ${faults} fault(s) in ${judgment.claims.length} claim(s) over ${p.k} checker run(s)`,
        ...(judgment.warnings.length > 0 && { warnings: judgment.warnings }),
      };
    },
  rows: claimRows,
  judge: {
    reads: 'metadata.documents: the retrieved documents (strings or {"title"?, "text"})',
    examples: [
      '--models models.yaml --model judge --input rag-answers.jsonl --output checked.jsonl',
      '--models models.yaml --proposer big --checker small --mode claims --reward ragas --input rag.jsonl --output checked.jsonl',
    ],
  },
});
