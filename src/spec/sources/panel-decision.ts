/** What one panel member answered about a sample. */
export interface MemberAnswer {
  readonly name: string;
  readonly score: number;
  readonly verdict: 'pass' | 'fail' | 'abstain';
  readonly weight: number;
}

/** The panel's answer, and how it was reached. */
export interface PanelDecision {
  readonly score: number;
  readonly verdict: 'pass' | 'fail' | 'abstain';
  readonly reason: string;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The verdict holding the greatest total (count or weight), or the verdicts tied for it. */
function topVerdicts(answers: readonly MemberAnswer[], by: (a: MemberAnswer) => number) {
  const totals = new Map<MemberAnswer['verdict'], number>();
  for (const a of answers) totals.set(a.verdict, (totals.get(a.verdict) ?? 0) + by(a));
  const best = Math.max(...totals.values());
  return { totals, top: [...totals].filter(([, total]) => total === best).map(([verdict]) => verdict) };
}

const tally = (totals: ReadonlyMap<string, number>) => [...totals].map(([v, n]) => `${v} ${n}`).join(', ');

/**
 * Majority of verdicts: the score is the mean of the members in the majority. A tie between
 * verdicts is an `abstain` scored at the mean of every member, so that no member's order or
 * name breaks it (two members of three answering, one pass and one fail: 0.5 for 1 and 0).
 */
export function majorityDecision(answers: readonly MemberAnswer[]): PanelDecision {
  const { totals, top } = topVerdicts(answers, () => 1);
  if (top.length > 1) {
    return { score: mean(answers.map((a) => a.score)), verdict: 'abstain', reason: `tie (${tally(totals)})` };
  }
  const verdict = top[0] as MemberAnswer['verdict'];
  const majority = answers.filter((a) => a.verdict === verdict);
  return {
    score: mean(majority.map((a) => a.score)),
    verdict,
    reason: `majority ${verdict} (${tally(totals)})`,
  };
}

/**
 * Weighted mean of the scores; the verdict with the greatest total weight (a tie: `abstain`).
 * Weights are those of the members that answered, renormalized.
 */
export function weightedDecision(answers: readonly MemberAnswer[]): PanelDecision {
  const total = answers.reduce((sum, a) => sum + a.weight, 0);
  const score = answers.reduce((sum, a) => sum + a.weight * a.score, 0) / total;
  const { totals, top } = topVerdicts(answers, (a) => a.weight);
  const verdict = top.length > 1 ? 'abstain' : (top[0] as MemberAnswer['verdict']);
  return {
    score,
    verdict,
    reason: `weighted mean of ${answers.length} members (verdict weights: ${tally(totals)})`,
  };
}

/** How far apart the members' scores are: the largest less the smallest. */
export const scoreSpread = (answers: readonly MemberAnswer[]): number =>
  Math.max(...answers.map((a) => a.score)) - Math.min(...answers.map((a) => a.score));
