import { createRng, type Rng } from '../core/index.js';

/**
 * DIR's synthetic preference pairs. Every response holds `CONTENT` sentiment tokens (good or bad),
 * some markdown tokens and filler, left-padded to a fixed length and closed by END, whose hidden
 * state is the reward model's representation. The true preference is content alone: the chosen
 * response has more good tokens. Length and markdown count are decided per pair by the bias
 * labels: in training the chosen response is the longer one (and the more formatted one) with
 * probability `bias` (`formatBias`); in the bias-balanced set each label is 1 in half the pairs,
 * independent of the content, so a model that reads length gains nothing there.
 */
export const PAD = 0;
export const END = 1;
const FILLER = [2, 3, 4, 5];
const MARKDOWN = [6, 7];
const GOOD = 8;
const BAD = 9;
export const DIR_VOCAB = 10;
/** Sentiment tokens per response; the response's quality is how many of them are good. */
const CONTENT = 3;
const MAX_MARKDOWN = 3;
export const MIN_LENGTH = CONTENT + MAX_MARKDOWN;
export const MAX_LENGTH = 15;
/** Tokens per response: the padded body and END. */
export const DIR_SEQ_LEN = MAX_LENGTH + 1;

export interface Response {
  tokens: number[];
  length: number;
  markdown: number;
  quality: number;
}

export interface PreferencePair {
  chosen: Response;
  rejected: Response;
  /** Length bias label: 1 when the chosen response is longer. */
  length: number;
  /** Format bias label: 1 when the chosen response has more markdown tokens. */
  format: number;
}

/** Two distinct integers in [min, max], the larger first. */
function twoDistinct(rng: Rng, min: number, max: number): [number, number] {
  const a = rng.int(min, max);
  let b = rng.int(min, max - 1);
  if (b >= a) b += 1;
  return a > b ? [a, b] : [b, a];
}

function response(rng: Rng, quality: number, length: number, markdown: number): Response {
  const body = [
    ...Array.from({ length: CONTENT }, (_, i) => (i < quality ? GOOD : BAD)),
    ...Array.from({ length: markdown }, () => MARKDOWN[rng.int(0, MARKDOWN.length - 1)] as number),
    ...Array.from(
      { length: length - CONTENT - markdown },
      () => FILLER[rng.int(0, FILLER.length - 1)] as number,
    ),
  ];
  const tokens = [...Array<number>(MAX_LENGTH - length).fill(PAD), ...rng.shuffle(body), END];
  return { tokens, length, markdown, quality };
}

/**
 * One pair whose bias labels are given: the labels decide length and markdown, content decides
 * the preference unless `mislabeled` (an annotator's error: the chosen response is the worse one).
 */
function pair(rng: Rng, lengthLabel: number, formatLabel: number, mislabeled = false): PreferencePair {
  const [high, low] = twoDistinct(rng, 0, CONTENT);
  const [better, worse] = mislabeled ? [low, high] : [high, low];
  const [longer, shorter] = twoDistinct(rng, MIN_LENGTH, MAX_LENGTH);
  const [more, fewer] = twoDistinct(rng, 0, MAX_MARKDOWN);
  const chosen = response(rng, better, lengthLabel ? longer : shorter, formatLabel ? more : fewer);
  const rejected = response(rng, worse, lengthLabel ? shorter : longer, formatLabel ? fewer : more);
  return { chosen, rejected, length: lengthLabel, format: formatLabel };
}

/**
 * `n` pairs as a length-biased annotator labels them: the chosen response is the longer one with
 * probability `o.bias`, the more formatted one with probability `o.formatBias`, and the one with
 * the worse content with probability `o.labelNoise` (0 for an evaluation set: the true preference).
 * The labels are drawn independently, so length says something about the annotator's choice that
 * content does not: a model fitting these labels gains from reading length.
 */
export function biasedPairs(
  n: number,
  seed: number,
  o: { bias: number; formatBias: number; labelNoise: number },
): PreferencePair[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () =>
    pair(rng, rng.next() < o.bias ? 1 : 0, rng.next() < o.formatBias ? 1 : 0, rng.next() < o.labelNoise),
  );
}

/**
 * `n` pairs labelled by their content, with each bias label 1 in half of them (exactly, for `n` a
 * multiple of 4: the two labels crossed), independent of the content.
 */
export function balancedPairs(n: number, seed: number): PreferencePair[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, (_, i) => pair(rng, i % 2, Math.floor(i / 2) % 2));
}
