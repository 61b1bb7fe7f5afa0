import type { ClaimTie } from './claim.js';
import type { RefcheckerLabel } from './refchecker-aggregate.js';

/** One Checker run's say on one claim. */
export interface ClaimVotePoint {
  /** +1 when the run's answer matches the expected value; -1 otherwise (mismatch, "cannot answer", missing). */
  readonly point: 1 | -1;
  readonly status: 'answered' | 'cannot_answer' | 'missing';
}

export interface ClaimVerdict {
  readonly sum: number;
  readonly verdict: 'supported' | 'fault';
  /** The votes cancelled out and the tie rule decided. */
  readonly tie: boolean;
  /**
   * The claim's RefChecker label: supported claims are entailed; a fault is a contradiction when
   * runs answered differently at least as often as they found nothing, else neutral.
   */
  readonly label: RefcheckerLabel;
}

/** MARCH's majority over the k Checker runs (grounding.md §MARCH step 4). */
export function claimVerdict(votes: readonly ClaimVotePoint[], tie: ClaimTie): ClaimVerdict {
  const sum = votes.reduce((s, v) => s + v.point, 0);
  const verdict = sum > 0 ? 'supported' : sum < 0 ? 'fault' : tie;
  const mismatches = votes.filter((v) => v.point < 0 && v.status === 'answered').length;
  const unanswered = votes.filter((v) => v.status !== 'answered').length;
  const label: RefcheckerLabel =
    verdict === 'supported' ? 'entailment' : mismatches >= unanswered ? 'contradiction' : 'neutral';
  return { sum, verdict, tie: sum === 0, label };
}
