import type { ClaimVote } from './claims-detail';

/** ✓ the run's answer matched, ✗ it answered otherwise, ? it could not answer, – it skipped the claim. */
function markOf(v: ClaimVote): [mark: string, words: string, tone: string] {
  if (v.status === 'cannot_answer') return ['?', 'cannot answer', 'neutral'];
  if (v.status === 'missing') return ['–', 'no answer for this claim', 'neutral'];
  return v.match ? ['✓', 'matches', 'good'] : ['✗', 'does not match', 'bad'];
}

/** One Checker run's vote as a compact mark; what it answered, and what decided the match, is its title. */
export function ClaimVoteMark({ vote, index }: { vote: ClaimVote; index: number }) {
  const [mark, words, tone] = markOf(vote);
  const title = [
    `run ${vote.run ?? index}: ${words}`,
    vote.answer !== undefined && `answer: ${vote.answer}`,
    vote.by !== undefined && `by ${vote.by}${vote.judgeReason ? `: ${vote.judgeReason}` : ''}`,
    vote.evidence && `evidence: ${vote.evidence}`,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <span className={`vote tone-${tone}`} title={title} data-vote={vote.status}>
      {mark}
    </span>
  );
}
