import type { RewardResult } from '../core/index.js';
import { ApiError } from '../server/index.js';
import type { SampleText, Store } from '../store/index.js';

/** Longest response or prompt text sent inline with a sample; the rest is fetched on demand. */
export const DETAIL_TEXT_CHARS = 100_000;

/** One sample as the detail page shows it: the result, and its text cut at DETAIL_TEXT_CHARS. */
export interface SampleDetail {
  readonly result: RewardResult;
  /** Null when the store has no text for the sample (server results, stores before schema 7). */
  readonly text: {
    readonly prompt?: SampleText['prompt'];
    readonly response: string;
    /** The full response length; larger than `response.length` when it was cut. */
    readonly response_chars: number;
    readonly prompt_truncated: boolean;
  } | null;
}

export async function sampleDetail(store: Store, runId: string, sampleId: string): Promise<SampleDetail> {
  const [result, text] = await Promise.all([
    store.getResult(runId, sampleId),
    store.getSampleText(runId, sampleId),
  ]);
  if (!result) throw new ApiError(404, 'sample_not_found', `no sample "${sampleId}" in run ${runId}`);
  if (!text) return { result, text: null };
  const promptChars =
    text.prompt === undefined
      ? 0
      : typeof text.prompt === 'string'
        ? text.prompt.length
        : text.prompt.reduce((sum, message) => sum + message.content.length, 0);
  const promptTruncated = promptChars > DETAIL_TEXT_CHARS;
  return {
    result,
    text: {
      ...(text.prompt !== undefined && !promptTruncated && { prompt: text.prompt }),
      response: text.response.slice(0, DETAIL_TEXT_CHARS),
      response_chars: text.response.length,
      prompt_truncated: promptTruncated,
    },
  };
}
