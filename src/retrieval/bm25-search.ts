import type { Bm25Index } from './bm25-index.js';
import { tokenize } from './tokenize.js';

/** One hit: the document number in the index and its BM25 score. */
export interface Bm25Hit {
  readonly doc: number;
  readonly score: number;
}

/**
 * Lucene's BM25 IDF, ln(1 + (N − df + 0.5) / (df + 0.5)): never negative, so a term in most
 * documents adds a little instead of penalizing the documents that contain it.
 */
export function bm25Idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/** One term's contribution: idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avgLen)). */
export function bm25TermScore(
  idf: number,
  tf: number,
  docLength: number,
  avgDocLength: number,
  params: { k1: number; b: number },
): number {
  const norm = params.k1 * (1 - params.b + (params.b * docLength) / (avgDocLength || 1));
  return (idf * tf * (params.k1 + 1)) / (tf + norm);
}

// Scores accumulate here and are reset after each query: search is synchronous, so one scratch
// array per index is safe and saves allocating N floats per query.
const scratch = new WeakMap<Bm25Index, Float64Array>();

/**
 * The `topk` best documents for `query`, best first; ties go to the earlier document. Each distinct
 * query term counts once (a repeated word in a query does not weigh more). Documents sharing no
 * term with the query are never returned.
 */
export function searchBm25(index: Bm25Index, query: string, topk: number): Bm25Hit[] {
  let scores = scratch.get(index);
  if (!scores) {
    scores = new Float64Array(index.docCount);
    scratch.set(index, scores);
  }
  const touched: number[] = [];
  for (const term of new Set(tokenize(query))) {
    const t = index.terms.get(term);
    if (t === undefined) continue;
    const start = index.termOffsets[t] as number;
    const end = index.termOffsets[t + 1] as number;
    const idf = bm25Idf(index.docCount, end - start);
    for (let p = start; p < end; p++) {
      const doc = index.postingDocs[p] as number;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] =
        (scores[doc] as number) +
        bm25TermScore(
          idf,
          index.postingTfs[p] as number,
          index.docLengths[doc] as number,
          index.avgDocLength,
          index.params,
        );
    }
  }
  const best: Bm25Hit[] = [];
  for (const doc of touched) {
    const score = scores[doc] as number;
    scores[doc] = 0;
    const last = best[topk - 1];
    if (last && (score < last.score || (score === last.score && doc > last.doc))) continue;
    let at = best.length;
    while (at > 0) {
      const prev = best[at - 1] as Bm25Hit;
      if (prev.score > score || (prev.score === score && prev.doc < doc)) break;
      at--;
    }
    best.splice(at, 0, { doc, score });
    if (best.length > topk) best.pop();
  }
  return best;
}
