import type { Evidence, LlmUsage, Sample } from '../../core/index.js';
import { type SourceCheck, SourceFailedError, type SourceServices } from '../../spec/index.js';

/**
 * A judge kind's check on one row of a row-format command: the judgment the kind keeps as its
 * evidence detail, and what its calls cost, whether it scored the row or failed it (a
 * `SourceFailedError` keeps both); `evidence` is the row's evidence as `score` would store it
 * (source and kind: the kind's name). Any other error fails the row as usual.
 */
export async function judgeKindRow(
  kind: string,
  check: SourceCheck,
  sample: Sample,
  services: SourceServices,
): Promise<{ detail: unknown; usage: LlmUsage | undefined; evidence: Evidence }> {
  const started = performance.now();
  try {
    // Rows in flight finish on Ctrl-C (the runner stops reading): no signal aborts them.
    const outcome = await check(sample, { services, signal: new AbortController().signal });
    return {
      detail: outcome.detail,
      usage: outcome.usage,
      evidence: {
        source: kind,
        kind,
        score: outcome.score,
        verdict: outcome.verdict,
        detail: outcome.detail,
        veto: false,
        invalid: false,
        ...(outcome.reason !== undefined && { reason: outcome.reason }),
        ...(outcome.usage !== undefined && { usage: outcome.usage }),
        ...(outcome.calls !== undefined && { calls: [...outcome.calls] }),
        elapsed_ms: performance.now() - started,
      },
    };
  } catch (error) {
    if (!(error instanceof SourceFailedError) || error.trace.detail === undefined) throw error;
    const { detail, usage, calls } = error.trace;
    return {
      detail,
      usage,
      evidence: {
        source: kind,
        kind,
        verdict: 'error',
        detail,
        veto: false,
        invalid: true,
        reason: error.message,
        ...(usage !== undefined && { usage }),
        ...(calls !== undefined && { calls: [...calls] }),
        elapsed_ms: performance.now() - started,
      },
    };
  }
}
