// One segmenter for every call: building it loads ICU's break dictionaries, which costs far more
// than segmenting a document.
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

// Word boundaries fall on both sides of whitespace (UAX #29; only combining marks attach to a
// space, and they are not word-like), so text can be segmented chunk by chunk between spaces
// with the same result. Natural text repeats its chunks, and ICU is the slow part: memoizing
// them makes indexing faster still. Bounded, and cleared when full.
const chunkTerms = new Map<string, readonly string[]>();
const MAX_CACHED_CHUNKS = 200_000;

// A run of ASCII letters and digits, with only brackets, quotes or sentence punctuation around
// it, is exactly one word under UAX #29 (letters and digits never break among themselves, and
// that punctuation joins words only when a letter or digit follows it). Such chunks, most of
// English text, skip ICU, whose per-call setup costs about 100 µs.
const PLAIN_WORD = /^[("'[]*([a-z0-9]+)[)"'\],.;:!?]*$/;

function segmentChunk(chunk: string): readonly string[] {
  const plain = PLAIN_WORD.exec(chunk);
  if (plain) return [plain[1] as string];
  let terms = chunkTerms.get(chunk);
  if (terms === undefined) {
    const found: string[] = [];
    for (const segment of segmenter.segment(chunk)) if (segment.isWordLike) found.push(segment.segment);
    if (chunkTerms.size >= MAX_CACHED_CHUNKS) chunkTerms.clear();
    chunkTerms.set(chunk, found);
    terms = found;
  }
  return terms;
}

/**
 * Index terms of a text in any script: NFKC, lowercase, then ICU word segmentation, which splits
 * Latin on spaces and punctuation and splits Chinese, Japanese and Thai (written without spaces)
 * into dictionary words. Only word-like segments (letters, digits) are kept; there is no stemming
 * and no stop list, since BM25's IDF already discounts common words.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const chunk of text.normalize('NFKC').toLowerCase().split(/\s+/u)) {
    if (chunk !== '') for (const term of segmentChunk(chunk)) terms.push(term);
  }
  return terms;
}
