import type { BenchJudgment } from '../bench-record.js';

/** One call's usage, as the fixtures' judgments carry it. */
export const usage = { calls: 1, prompt_tokens: 1, completion_tokens: 1 };

/** A pairwise judgment of responses of these lengths, its outcome from the verdict and the label. */
export const pairJudgment = (
  first: number,
  second: number,
  verdict: BenchJudgment['verdict'],
  better: BenchJudgment['better'],
): BenchJudgment => ({
  key: 'pair',
  kind: 'pairwise',
  outcome: verdict === better ? 'correct' : verdict === 'tie' ? 'tie' : 'wrong',
  verdict,
  better,
  lengths: { first, second },
  usage,
});
