import { exactMatch, marchNumericMatch } from '../../verify/reference/index.js';
import type { ClaimMode } from './claim.js';

/** How a Checker answer was compared with the expected value before any judge call. */
export interface ClaimAnswerMatch {
  readonly status: 'answered' | 'cannot_answer';
  /** Undefined: the rules could not decide, and the semantic-equivalence judge must. */
  readonly match: boolean | undefined;
  readonly by: 'numeric' | 'exact' | 'refusal';
}

// The Checker's refusal, however it punctuates it; an empty answer is one too.
const CANNOT_ANSWER = /^\W*cannot\s+answer\b/i;

/**
 * The rule-based part of matching a Checker answer to the Proposer's expected value: "cannot
 * answer" never matches; numeric claims use MARCH's numeric matcher and are decided here; general
 * claims match on normalized exact equality, and anything else goes to the judge.
 */
export function matchClaimAnswer(mode: ClaimMode, expected: string, answer: string): ClaimAnswerMatch {
  if (answer.trim() === '' || CANNOT_ANSWER.test(answer)) {
    return { status: 'cannot_answer', match: false, by: 'refusal' };
  }
  if (mode === 'numeric') {
    return { status: 'answered', match: marchNumericMatch(expected, answer), by: 'numeric' };
  }
  return { status: 'answered', match: exactMatch(answer, expected).match ? true : undefined, by: 'exact' };
}
