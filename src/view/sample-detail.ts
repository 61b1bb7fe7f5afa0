import type { JudgeCall, RewardResult } from '../core/index.js';
import { ApiError } from '../server/index.js';
import type { SampleText, Store } from '../store/index.js';
import { evidenceCalls } from './evidence-calls.js';
import { type JudgeCallPreview, judgeCallPreview } from './judge-call-preview.js';

/** Longest response, prompt or reference text sent inline with a sample; the rest is fetched on demand. */
export const DETAIL_TEXT_CHARS = 100_000;

/**
 * One sample as the detail page shows it: the result (its evidence without the judge calls), the
 * judge calls of each piece of evidence with their texts cut at CALL_TEXT_CHARS, and its text cut
 * at DETAIL_TEXT_CHARS.
 */
export interface SampleDetail {
  readonly result: RewardResult;
  /** `judge_calls[i]`: the calls behind `result.evidence[i]`, in the order made (empty: none kept). */
  readonly judge_calls: JudgeCallPreview[][];
  /** Null when the store has no text for the sample (server results, stores before schema 7). */
  readonly text: {
    readonly prompt?: SampleText['prompt'];
    readonly response: string;
    /** The full response length; larger than `response.length` when it was cut. */
    readonly response_chars: number;
    readonly prompt_truncated: boolean;
    /** Absent when the sample had none or it is longer than DETAIL_TEXT_CHARS (then truncated). */
    readonly reference?: SampleText['reference'];
    readonly reference_truncated: boolean;
  } | null;
}

export async function sampleDetail(store: Store, runId: string, sampleId: string): Promise<SampleDetail> {
  const [result, text] = await Promise.all([
    store.getResult(runId, sampleId),
    store.getSampleText(runId, sampleId),
  ]);
  if (!result) throw new ApiError(404, 'sample_not_found', `no sample "${sampleId}" in run ${runId}`);
  const split = result.evidence.map(evidenceCalls);
  const shown = {
    result: { ...result, evidence: split.map((e) => e.evidence) },
    judge_calls: split.map((e) => e.calls.map(judgeCallPreview)),
  };
  if (!text) return { ...shown, text: null };
  const promptChars =
    text.prompt === undefined
      ? 0
      : typeof text.prompt === 'string'
        ? text.prompt.length
        : text.prompt.reduce((sum, message) => sum + message.content.length, 0);
  const promptTruncated = promptChars > DETAIL_TEXT_CHARS;
  const referenceChars =
    text.reference === undefined
      ? 0
      : typeof text.reference === 'string'
        ? text.reference.length
        : text.reference.reduce((sum, reference) => sum + reference.length, 0);
  const referenceTruncated = referenceChars > DETAIL_TEXT_CHARS;
  return {
    ...shown,
    text: {
      ...(text.prompt !== undefined && !promptTruncated && { prompt: text.prompt }),
      response: text.response.slice(0, DETAIL_TEXT_CHARS),
      response_chars: text.response.length,
      prompt_truncated: promptTruncated,
      ...(text.reference !== undefined && !referenceTruncated && { reference: text.reference }),
      reference_truncated: referenceTruncated,
    },
  };
}

/** One judge call of a stored sample, for its whole texts; a 404 names what is missing. */
export async function sampleJudgeCall(
  store: Store,
  runId: string,
  sampleId: string,
  at: { evidence: number; call: number },
): Promise<JudgeCall> {
  const result = await store.getResult(runId, sampleId);
  if (!result) throw new ApiError(404, 'sample_not_found', `no sample "${sampleId}" in run ${runId}`);
  const evidence = result.evidence[at.evidence];
  const call = evidence && evidenceCalls(evidence).calls[at.call];
  if (!call) {
    throw new ApiError(
      404,
      'call_not_found',
      `sample "${sampleId}" has no judge call ${at.call} in evidence ${at.evidence}`,
    );
  }
  return call;
}
