import {
  type Evidence,
  failedResult,
  type JudgeCall,
  type LlmUsage,
  type RewardResult,
} from '../core/index.js';

/** What an EVPV problem row's line holds that its stored result reads (`judge evpv --bench-rows`). */
export interface EvpvRowLine {
  readonly id: string;
  readonly error?: string;
  readonly candidates?: ReadonlyArray<{
    readonly index: number;
    readonly status: 'ok' | 'failed';
    readonly scores?: Readonly<Record<string, number>>;
    readonly error?: string;
  }>;
  readonly selected?: Readonly<Record<string, number>>;
}

/** The aggregator the stored reward reads: the `evpv` spec source's default. */
export const STORED_AGGREGATOR = 'mean';

/**
 * An EVPV problem row as a stored result: one `evpv` evidence holding the row's whole line (every
 * candidate's audit, step scores and aggregates) with its calls and usage; a component per
 * candidate, `candidate_<i>`, its gated mean score (null when its output could not be read); and
 * the reward the score of the candidate the mean aggregator selects — what best-of-N by EVPV
 * would keep. A failed row, or one with no scorable candidate, is a failed result with its reason,
 * never a 0.
 */
export function evpvRowResult(
  line: EvpvRowLine,
  run: { readonly calls: readonly JudgeCall[]; readonly usage: LlmUsage; readonly elapsedMs: number },
): RewardResult {
  const components = Object.fromEntries(
    (line.candidates ?? []).map((c) => [
      `candidate_${c.index}`,
      c.status === 'ok' ? (c.scores?.[STORED_AGGREGATOR] ?? null) : null,
    ]),
  );
  const selected = line.selected?.[STORED_AGGREGATOR];
  const score = line.candidates?.find((c) => c.index === selected)?.scores?.[STORED_AGGREGATOR];
  const reason =
    line.error ?? (score === undefined ? 'no candidate could be scored, so none is selected' : undefined);
  const { id: _, ...detail } = line;
  const evidence: Evidence = {
    source: 'evpv',
    kind: 'evpv',
    ...(reason === undefined && { score }),
    verdict: reason === undefined ? 'pass' : 'error',
    detail,
    veto: false,
    invalid: reason !== undefined,
    ...(reason !== undefined && { reason }),
    usage: run.usage,
    ...(run.calls.length > 0 && { calls: [...run.calls] }),
    elapsed_ms: run.elapsedMs,
  };
  if (reason !== undefined || score === undefined) {
    return failedResult(line.id, [`evpv: ${reason}`], { evidence: [evidence], components }, run.elapsedMs);
  }
  return {
    spec: 'rk/v1',
    id: line.id,
    status: 'ok',
    reward: score,
    components,
    evidence: [evidence],
    errors: [],
    warnings: [],
    timings: { total_ms: run.elapsedMs },
  };
}
