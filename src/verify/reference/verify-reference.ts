import { RewardKitError } from '../../core/index.js';
import { containsMatch, exactMatch, substringMatch, tokenF1 } from './answer-match.js';
import { type AnswerExtraction, extractAnswer } from './extract-answer.js';
import { marchNumericMatch } from './march-numeric-match.js';

export interface ReferenceOptions {
  readonly mode: 'exact' | 'contains' | 'substring' | 'f1' | 'numeric';
  /** Mode f1: the F1 at or above which the answer passes (default 0.5). */
  readonly threshold?: number;
  /** Take the answer from `<answer>` tags or an "Answer:" line first; absent = the whole response. */
  readonly extract?: AnswerExtraction;
}

/** Result of `verifyReference`. */
export interface ReferenceVerification {
  /** exact/contains/substring/numeric: 1 or 0; f1: the token F1. */
  readonly score: number;
  readonly pass: boolean;
  readonly mode: ReferenceOptions['mode'];
  readonly matched: string | null;
  /** The text that was matched (after extraction), or null when extraction found nothing. */
  readonly answer: string | null;
  readonly reason: string;
}

/** One entry point for reference matching, as the reward spec's `reference` source calls it. */
export function verifyReference(
  response: string,
  golds: string | readonly string[],
  options: ReferenceOptions,
): ReferenceVerification {
  const list = typeof golds === 'string' ? [golds] : golds;
  if (list.length === 0)
    throw new RewardKitError('RK_SOURCE_FAILED', 'no reference answers to match against');
  const answer = options.extract ? extractAnswer(response, options.extract) : response;
  if (answer === null) {
    const where = options.extract === 'answer_tag' ? 'an <answer>…</answer> block' : 'an "Answer:" line';
    return {
      score: 0,
      pass: false,
      mode: options.mode,
      matched: null,
      answer,
      reason: `no ${where} in the response`,
    };
  }
  switch (options.mode) {
    case 'exact':
    case 'contains':
    case 'substring': {
      const match = { exact: exactMatch, contains: containsMatch, substring: substringMatch }[options.mode];
      const m = match(answer, list);
      return {
        score: m.match ? 1 : 0,
        pass: m.match,
        mode: options.mode,
        matched: m.matched,
        answer,
        reason: m.match
          ? `matches "${m.matched}"`
          : `"${m.normalizedPrediction}" ${options.mode === 'exact' ? 'equals' : 'contains'} none of ${list.length} reference(s)`,
      };
    }
    case 'f1': {
      const threshold = options.threshold ?? 0.5;
      const f = tokenF1(answer, list);
      return {
        score: f.f1,
        pass: f.f1 >= threshold,
        mode: 'f1',
        matched: f.f1 > 0 ? f.matched : null,
        answer,
        reason: `token F1 ${f.f1.toFixed(4)} (precision ${f.precision.toFixed(4)}, recall ${f.recall.toFixed(4)}) against the threshold ${threshold}`,
      };
    }
    case 'numeric': {
      const matched = list.find((g) => marchNumericMatch(g, answer)) ?? null;
      return {
        score: matched === null ? 0 : 1,
        pass: matched !== null,
        mode: 'numeric',
        matched,
        answer,
        reason:
          matched === null
            ? `"${answer}" is numerically equal to no reference`
            : `numerically equal to "${matched}"`,
      };
    }
  }
}
