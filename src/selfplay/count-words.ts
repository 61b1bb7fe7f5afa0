const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * Words in `text` by ICU word segmentation, so text written without spaces counts its words
 * ("巴黎是法国的首都" is 5 words: 巴黎 / 是 / 法国 / 的 / 首都); punctuation is not a word.
 */
export function countWords(text: string): number {
  let words = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) words++;
  return words;
}
