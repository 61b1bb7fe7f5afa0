import { JUDGED_OUTCOMES, type JudgedOutcome, type JudgedPair } from './judged-pair.js';

/** A split's accuracy: right verdicts over pairs, with every outcome counted. */
export type SplitAccuracy = { readonly pairs: number; readonly accuracy: number } & Readonly<
  Record<JudgedOutcome, number>
>;

/** Strict accuracy: a tie, an inconsistent or an invalid judgment earns nothing (see `judgedOutcome`). */
export function splitAccuracy(judged: readonly JudgedPair[]): SplitAccuracy {
  const counts = Object.fromEntries(JUDGED_OUTCOMES.map((o) => [o, 0])) as Record<JudgedOutcome, number>;
  for (const j of judged) counts[j.outcome]++;
  return {
    pairs: judged.length,
    accuracy: judged.length === 0 ? 0 : counts.correct / judged.length,
    ...counts,
  };
}
