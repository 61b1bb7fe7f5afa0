// One segmenter for every call: building it loads ICU's break dictionaries, which costs far more
// than segmenting a document.
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * Index terms of a text in any script: NFKC, lowercase, then ICU word segmentation, which splits
 * Latin on spaces and punctuation and splits Chinese, Japanese and Thai (written without spaces)
 * into dictionary words. Only word-like segments (letters, digits) are kept; there is no stemming
 * and no stop list, since BM25's IDF already discounts common words.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const segment of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (segment.isWordLike) terms.push(segment.segment);
  }
  return terms;
}
