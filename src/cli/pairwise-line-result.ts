import { type Evidence, failedResult, type LlmUsage, type RewardResult } from '../core/index.js';
import type { CallTrace } from '../llm/index.js';
import { judgeCallsOf } from '../llm/judge-call-of.js';

/** The first response's score against the second, as the pairwise sources score a response against its reference. */
const SCORE: Readonly<Record<string, number>> = { first: 1, second: 0, tie: 0.5, inconsistent: 0.5 };

/** An output line of `judge pairwise` (see its `--help`). */
interface PairwiseLine {
  readonly id: string;
  readonly verdict?: string;
  readonly reason?: string;
  readonly decided_by?: string;
  readonly warnings?: readonly string[];
  readonly error?: string;
  readonly comparisons?: readonly unknown[];
  readonly detail?: unknown;
  readonly usage?: LlmUsage;
  readonly [field: string]: unknown;
}

/**
 * A `judge pairwise` line as a stored result, its evidence as the pairwise sources keep theirs (the
 * judgment under the judge's kind, `genrm` or `openrs`, so the inspector's view of that judge
 * draws it, with the first response as "the response" and the second as "the reference"). The
 * reward is the first response's: 1 when it wins, 0 when it loses, half for a tie or orders that
 * disagreed; a row without a readable verdict is a failed result. `calls` are the judgment's
 * traces where the command still has them (a line read back from the output has none).
 */
export function pairwiseLineResult(
  line: PairwiseLine,
  judge: string,
  calls?: readonly CallTrace[],
): RewardResult {
  const elapsed = (calls ?? []).reduce((sum, call) => sum + call.latencyMs, 0);
  if (line.verdict === undefined) return failedResult(line.id, [line.error ?? 'no verdict']);
  const score = SCORE[line.verdict];
  const evidence: Evidence = {
    source: 'pairwise',
    kind: judge,
    ...(score !== undefined && { score }),
    verdict: line.verdict === 'first' ? 'pass' : score === undefined ? 'error' : 'fail',
    detail: {
      verdict: line.verdict,
      comparisons: line.comparisons ?? [],
      ...(line.detail !== undefined && { detail: line.detail }),
      ...(line.reason !== undefined && { reason: line.reason }),
      ...(line.decided_by !== undefined && { decidedBy: line.decided_by }),
      ...(line.warnings !== undefined && { warnings: line.warnings }),
    },
    veto: false,
    invalid: score === undefined,
    ...(line.reason !== undefined && { reason: line.reason }),
    ...(line.usage !== undefined && { usage: line.usage }),
    ...(calls !== undefined && calls.length > 0 && { calls: judgeCallsOf(calls) }),
    elapsed_ms: elapsed,
  };
  if (score === undefined) {
    return failedResult(
      line.id,
      [line.error ?? `verdict "${line.verdict}"`],
      { evidence: [evidence], components: { pairwise: null } },
      elapsed,
    );
  }
  return {
    spec: 'rk/v1',
    id: line.id,
    status: 'ok',
    reward: score,
    components: { pairwise: score },
    evidence: [evidence],
    errors: [],
    warnings: [...(line.warnings ?? [])],
    timings: { total_ms: elapsed },
  };
}
