import { answerTokens, normalizeAnswer } from './normalize-answer.js';

/** Result of matching a prediction against one or more gold answers. */
export interface AnswerMatch {
  readonly match: boolean;
  /** The gold that matched (as given), or null. */
  readonly matched: string | null;
  readonly normalizedPrediction: string;
}

const asList = (golds: string | readonly string[]): readonly string[] =>
  typeof golds === 'string' ? [golds] : golds;

/** Normalized exact match against any gold. */
export function exactMatch(prediction: string, golds: string | readonly string[]): AnswerMatch {
  const normalizedPrediction = normalizeAnswer(prediction);
  const matched = asList(golds).find((g) => normalizeAnswer(g) === normalizedPrediction) ?? null;
  return { match: matched !== null, matched, normalizedPrediction };
}

/**
 * A gold contained in the prediction, on word boundaries after normalization ("Paris" is in
 * "it is paris france", not in "parisian"). An empty gold never matches.
 */
export function containsMatch(prediction: string, golds: string | readonly string[]): AnswerMatch {
  const normalizedPrediction = normalizeAnswer(prediction);
  const padded = ` ${normalizedPrediction} `;
  const matched =
    asList(golds).find((g) => {
      const gold = normalizeAnswer(g);
      return gold !== '' && padded.includes(` ${gold} `);
    }) ?? null;
  return { match: matched !== null, matched, normalizedPrediction };
}

/**
 * A gold anywhere in the prediction after normalization, word boundaries or not ("46" is in
 * "146"): the gameable "the reference appears anywhere" reward of the lab's hacking experiment.
 */
export function substringMatch(prediction: string, golds: string | readonly string[]): AnswerMatch {
  const normalizedPrediction = normalizeAnswer(prediction);
  const matched =
    asList(golds).find((g) => {
      const gold = normalizeAnswer(g);
      return gold !== '' && normalizedPrediction.includes(gold);
    }) ?? null;
  return { match: matched !== null, matched, normalizedPrediction };
}

/** SQuAD token F1, the best over the golds. */
export interface TokenF1 {
  readonly f1: number;
  readonly precision: number;
  readonly recall: number;
  readonly matched: string | null;
}

export function tokenF1(prediction: string, golds: string | readonly string[]): TokenF1 {
  const predicted = answerTokens(prediction);
  let best: TokenF1 = { f1: 0, precision: 0, recall: 0, matched: null };
  for (const gold of asList(golds)) {
    const score = f1Against(predicted, answerTokens(gold));
    if (score.f1 > best.f1 || best.matched === null) best = { ...score, matched: gold };
  }
  return best;
}

function f1Against(predicted: readonly string[], gold: readonly string[]): Omit<TokenF1, 'matched'> {
  // Two empty answers agree; one empty answer shares nothing with the other.
  if (predicted.length === 0 || gold.length === 0) {
    const same = predicted.length === gold.length ? 1 : 0;
    return { f1: same, precision: same, recall: same };
  }
  const counts = new Map<string, number>();
  for (const t of gold) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of predicted) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  if (common === 0) return { f1: 0, precision: 0, recall: 0 };
  const precision = common / predicted.length;
  const recall = common / gold.length;
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall };
}
