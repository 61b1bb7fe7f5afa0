import { tokenize } from '../retrieval/tokenize.js';

/**
 * Words in `text` by ICU word segmentation (the retrieval tokenizer), so text written without
 * spaces counts its words ("巴黎是法国的首都" is 5: 巴黎 / 是 / 法国 / 的 / 首都); punctuation is
 * not a word. IFEval's `countWords` counts runs of letters instead, which makes a Chinese sentence
 * one word.
 */
export function segmentedWordCount(text: string): number {
  return tokenize(text).length;
}
