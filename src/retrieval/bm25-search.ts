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

/** Per index: the score accumulator and each document's length term k1 · (1 − b + b · len / avgLen). */
interface SearchState {
  scores: Float64Array;
  norms: Float64Array;
}

// Scores accumulate in `scores` and are reset after each query: search is synchronous, so one
// scratch array per index is safe and saves allocating N floats per query. The length terms are
// worked out once per index instead of once per posting.
const states = new WeakMap<Bm25Index, SearchState>();

function stateOf(index: Bm25Index): SearchState {
  let state = states.get(index);
  if (!state) {
    const { k1, b } = index.params;
    const norms = new Float64Array(index.docCount);
    for (let d = 0; d < index.docCount; d++)
      norms[d] = k1 * (1 - b + (b * (index.docLengths[d] as number)) / (index.avgDocLength || 1));
    state = { scores: new Float64Array(index.docCount), norms };
    states.set(index, state);
  }
  return state;
}

/**
 * The `topk` best documents for `query`, best first; ties go to the earlier document. Each distinct
 * query term counts once (a repeated word in a query does not weigh more). Documents sharing no
 * term with the query are never returned.
 */
export function searchBm25(index: Bm25Index, query: string, topk: number): Bm25Hit[] {
  const { scores, norms } = stateOf(index);
  const k1Plus1 = index.params.k1 + 1;
  const touched: number[] = [];
  for (const term of new Set(tokenize(query))) {
    const t = index.terms.get(term);
    if (t === undefined) continue;
    const start = index.termOffsets[t] as number;
    const end = index.termOffsets[t + 1] as number;
    // bm25TermScore, inlined with the precomputed length term: this loop is the search.
    const weight = bm25Idf(index.docCount, end - start) * k1Plus1;
    for (let p = start; p < end; p++) {
      const doc = index.postingDocs[p] as number;
      const tf = index.postingTfs[p] as number;
      const before = scores[doc] as number;
      if (before === 0) touched.push(doc);
      scores[doc] = before + (weight * tf) / (tf + (norms[doc] as number));
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
