import type { Evidence, JudgeCall } from '../core/index.js';
import { legacyJudgeCalls } from './legacy-judge-calls.js';

/**
 * A piece of evidence split for the sample page: its judge calls (`Evidence.calls`, or the traces
 * an older result kept in `detail.calls`), and the evidence without them, so that no call is
 * sent twice and the detail shows what the judge concluded.
 */
export function evidenceCalls(evidence: Evidence): { evidence: Evidence; calls: JudgeCall[] } {
  const { calls, ...rest } = evidence;
  const legacy = legacyJudgeCalls(rest.detail);
  const detail =
    legacy === undefined
      ? rest.detail
      : Object.fromEntries(Object.entries(rest.detail as object).filter(([key]) => key !== 'calls'));
  return {
    evidence: { ...rest, ...(rest.detail !== undefined && { detail }) },
    calls: calls ?? legacy ?? [],
  };
}
