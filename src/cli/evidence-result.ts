import { type Evidence, failedResult, type RewardResult } from '../core/index.js';

/**
 * A row judged by one judge kind as a stored result, as `score` stores a one-source spec's: the
 * reward is the evidence's score, its one component under the source's name; evidence without a
 * score (the judge could not judge the row) makes a failed result with its reason.
 */
export function evidenceResult(id: string, evidence: Evidence): RewardResult {
  if (evidence.score === undefined) {
    return failedResult(
      id,
      [`${evidence.source}: ${evidence.reason ?? 'no score'}`],
      { evidence: [evidence], components: { [evidence.source]: null } },
      evidence.elapsed_ms,
    );
  }
  return {
    spec: 'rk/v1',
    id,
    status: 'ok',
    reward: evidence.score,
    components: { [evidence.source]: evidence.score },
    evidence: [evidence],
    errors: [],
    warnings: [],
    timings: { total_ms: evidence.elapsed_ms },
  };
}
