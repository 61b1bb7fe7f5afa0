import {
  errorMessage,
  type JudgeCall,
  type LlmUsage,
  RewardKitError,
  type Sample,
} from '../../core/index.js';
import { addUsage } from '../../llm/usage-of.js';
import { SourceFailedError } from '../source-failed-error.js';
import {
  defineSourceKind,
  type SourceCheck,
  type SourceContext,
  type SourceOutcome,
} from '../source-kind.js';
import type { SourceKindRegistry } from '../source-kinds.js';
import {
  type MemberAnswer,
  majorityDecision,
  type PanelDecision,
  scoreSpread,
  weightedDecision,
} from './panel-decision.js';
import { type PanelMember, type PanelParams, panelParamsSchema } from './panel-params.js';

/** What one member (or the escalation judge) did on a sample, as the panel's evidence keeps it. */
export interface PanelMemberJudgment {
  readonly name: string;
  readonly kind: string;
  /** `error`: the member could not judge; `reason` says why. */
  readonly verdict: 'pass' | 'fail' | 'abstain' | 'error';
  readonly score?: number;
  readonly reason?: string;
  readonly usage?: LlmUsage;
  /** The member's own evidence detail (its judgment, less its calls). */
  readonly detail?: unknown;
}

/** The panel's evidence detail: every member's judgment and how the panel decided. */
export interface PanelDetail {
  readonly decide: PanelParams['decide'];
  readonly quorum: number;
  /** Members that gave a judgment. */
  readonly answered: number;
  readonly members: readonly PanelMemberJudgment[];
  /** Whether the `escalate_to` judge was called (always false unless decide: escalate). */
  readonly escalated: boolean;
  readonly escalation?: PanelMemberJudgment;
  /** Largest less smallest member score (decide: escalate). */
  readonly spread?: number;
}

interface CompiledMember {
  readonly member: Pick<PanelMember, 'name' | 'kind' | 'params'> & { readonly weight?: number };
  readonly check: SourceCheck;
}

interface MemberRun {
  readonly judgment: PanelMemberJudgment;
  readonly outcome?: SourceOutcome;
  readonly calls: readonly JudgeCall[];
  readonly warnings: readonly string[];
}

/** Runs one member; a member that throws is a recorded failure, unless the panel itself was stopped. */
async function runMember(
  compiled: CompiledMember,
  sample: Sample,
  context: SourceContext,
): Promise<MemberRun> {
  const { name, kind } = compiled.member;
  try {
    const outcome = await compiled.check(sample, context);
    if (!Number.isFinite(outcome.score)) throw new Error(`score is not a finite number (${outcome.score})`);
    return {
      judgment: {
        name,
        kind,
        verdict: outcome.verdict,
        score: outcome.score,
        ...(outcome.reason !== undefined && { reason: outcome.reason }),
        ...(outcome.usage !== undefined && { usage: outcome.usage }),
        ...(outcome.detail !== undefined && { detail: outcome.detail }),
      },
      outcome,
      calls: outcome.calls ?? [],
      warnings: (outcome.warnings ?? []).map((w) => `${name}: ${w}`),
    };
  } catch (error) {
    if (context.signal.aborted) throw error;
    const trace = error instanceof SourceFailedError ? error.trace : {};
    return {
      judgment: {
        name,
        kind,
        verdict: 'error',
        reason: errorMessage(error),
        ...(trace.usage !== undefined && { usage: trace.usage }),
        ...(trace.detail !== undefined && { detail: trace.detail }),
      },
      calls: trace.calls ?? [],
      warnings: [],
    };
  }
}

const answerOf = (run: MemberRun, weight: number): MemberAnswer => ({
  name: run.judgment.name,
  score: run.outcome?.score as number,
  verdict: run.outcome?.verdict as MemberAnswer['verdict'],
  weight,
});

const totalUsage = (runs: readonly MemberRun[]): LlmUsage | undefined =>
  runs.reduce<LlmUsage | undefined>(
    (sum, run) =>
      run.judgment.usage === undefined ? sum : sum ? addUsage(sum, run.judgment.usage) : run.judgment.usage,
    undefined,
  );

/**
 * The `panel` source kind: several LLM judges on each sample, run concurrently, decided by a
 * majority of verdicts, by weights, or by a stronger judge called only when they disagree.
 * A failed member is left out; fewer answers than the quorum make the sample's panel evidence
 * an error with every member's reason, never a score. `registry` is read when a spec is parsed
 * or compiled, so the panel can sit in the registry it reads its members from.
 */
export function panelSource(registry: () => SourceKindRegistry) {
  const compile = (member: CompiledMember['member']): CompiledMember => {
    const kind = registry().get(member.kind);
    // The params schema checked every member's kind when the spec was parsed.
    if (kind === undefined) {
      throw new RewardKitError('RK_INTERNAL', `panel member kind "${member.kind}" is not registered`);
    }
    return { member, check: kind.create(member.params) };
  };
  return defineSourceKind({
    kind: 'panel',
    description:
      'several LLM judges on one sample, decided by majority, weights, or a stronger judge on disagreement; agreement and cost per judgment in the run summary',
    params: panelParamsSchema(registry),
    inner: judgesOf,
    // What each judge's kind says of its params (a rubric file with bad entries), named by member.
    warnings: (params) =>
      judgesOf(params).flatMap((judge) =>
        (registry().get(judge.kind)?.warnings?.(judge.params) ?? []).map((w) => `${judge.name}: ${w}`),
      ),
    create: (params): SourceCheck => {
      const members = params.members.map(compile);
      const escalation = params.escalate_to && compile(params.escalate_to);
      return async (sample, context) => {
        const runs = await Promise.all(members.map((m) => runMember(m, sample, context)));
        const answers = runs.flatMap((run, i) =>
          run.outcome === undefined ? [] : [answerOf(run, members[i]?.member.weight ?? 1)],
        );
        const answered = runs.filter((run) => run.outcome !== undefined);
        const failures = runs.filter((run) => run.outcome === undefined);
        const base = {
          decide: params.decide,
          quorum: params.quorum,
          answered: answered.length,
          members: runs.map((run) => run.judgment),
        };
        if (answered.length < params.quorum) {
          throw new SourceFailedError(
            `${answered.length} of ${runs.length} panel members answered, below the quorum of ${params.quorum}: ${failures.map((f) => `${f.judgment.name}: ${f.judgment.reason}`).join('; ')}`,
            traceOf({ ...base, escalated: false }, runs),
          );
        }
        let decision: PanelDecision;
        let detail: PanelDetail;
        let all = runs;
        if (params.decide === 'escalate' && escalation) {
          const spread = scoreSpread(answers);
          if (spread > params.disagreement) {
            const escalated = await runMember(escalation, sample, context);
            all = [...runs, escalated];
            detail = { ...base, escalated: true, escalation: escalated.judgment, spread };
            if (escalated.outcome === undefined) {
              throw new SourceFailedError(
                `the members disagreed (score spread ${spread} > ${params.disagreement}) and ${escalated.judgment.name}, called to decide, failed: ${escalated.judgment.reason}`,
                traceOf(detail, all),
              );
            }
            decision = {
              score: escalated.outcome.score,
              verdict: escalated.outcome.verdict,
              reason: `the members disagreed (score spread ${spread} > ${params.disagreement}): ${escalated.judgment.name} decided${escalated.outcome.reason ? ` (${escalated.outcome.reason})` : ''}`,
            };
          } else {
            detail = { ...base, escalated: false, spread };
            decision = majorityDecision(answers);
          }
        } else {
          detail = { ...base, escalated: false };
          decision = params.decide === 'weights' ? weightedDecision(answers) : majorityDecision(answers);
        }
        const { usage, calls } = traceOf(detail, all);
        const warnings = [
          ...all.flatMap((run) => run.warnings),
          ...failures.map(
            (f) =>
              `${f.judgment.name} failed (${f.judgment.reason}); decided by the ${answered.length} members that answered`,
          ),
        ];
        return {
          score: decision.score,
          verdict: decision.verdict,
          reason: decision.reason,
          detail,
          ...(usage !== undefined && { usage }),
          calls,
          ...(warnings.length > 0 && { warnings }),
        };
      };
    },
  });
}

/** Every judge a panel may call: its members, then its escalation judge. */
const judgesOf = (params: PanelParams) => [
  ...params.members,
  ...(params.escalate_to ? [params.escalate_to] : []),
];

/** The evidence's trace: the detail, the summed usage, and the calls member by member in order. */
function traceOf(detail: PanelDetail, runs: readonly MemberRun[]) {
  const usage = totalUsage(runs);
  return { detail, ...(usage !== undefined && { usage }), calls: runs.flatMap((run) => run.calls) };
}
