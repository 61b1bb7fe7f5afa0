import type { LlmUsage, Sample } from '../../core/index.js';
import { type SourceCheck, SourceFailedError, type SourceServices } from '../../spec/index.js';

/**
 * A judge kind's check on one row of a row-format command: the judgment the kind keeps as its
 * evidence detail, and what its calls cost, whether it scored the row or failed it (a
 * `SourceFailedError` keeps both). Any other error fails the row as usual.
 */
export async function judgeKindRow(
  check: SourceCheck,
  sample: Sample,
  services: SourceServices,
): Promise<{ detail: unknown; usage: LlmUsage | undefined }> {
  try {
    // Rows in flight finish on Ctrl-C (the runner stops reading): no signal aborts them.
    const outcome = await check(sample, { services, signal: new AbortController().signal });
    return { detail: outcome.detail, usage: outcome.usage };
  } catch (error) {
    if (!(error instanceof SourceFailedError) || error.trace.detail === undefined) throw error;
    return { detail: error.trace.detail, usage: error.trace.usage };
  }
}
