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

/** The best `topk` of `docs` by `scores`, best first, ties to the earlier document. */
function topOf(docs: readonly number[], scores: Float64Array, topk: number): Bm25Hit[] {
  const best: Bm25Hit[] = [];
  for (const doc of docs) {
    const score = scores[doc] as number;
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

/** Where `doc` sits in the sorted postings `[lo, hi)`, or -1. */
function findPosting(postingDocs: Uint32Array, lo: number, hi: number, doc: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((postingDocs[mid] as number) < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo < postingDocs.length && postingDocs[lo] === doc ? lo : -1;
}

/**
 * The `topk` best documents for `query`, best first; ties go to the earlier document. Each distinct
 * query term counts once (a repeated word in a query does not weigh more). Documents sharing no
 * term with the query are never returned.
 *
 * Exhaustive in result, pruned in work (MaxScore): terms are taken rarest first, and a term can add
 * at most idf · (k1 + 1) to any document. Once the terms left could not lift a document that has
 * none of the terms so far above the current k-th score, the common terms (long posting lists, low
 * IDF: "the", "of") only complete the scores of documents already found, by binary search in their
 * postings instead of a walk over all of them.
 */
export function searchBm25(index: Bm25Index, query: string, topk: number): Bm25Hit[] {
  if (topk < 1) return [];
  const { scores, norms } = stateOf(index);
  const k1Plus1 = index.params.k1 + 1;
  const terms: Array<{ start: number; end: number; weight: number }> = [];
  for (const term of new Set(tokenize(query))) {
    const t = index.terms.get(term);
    if (t === undefined) continue;
    const start = index.termOffsets[t] as number;
    const end = index.termOffsets[t + 1] as number;
    terms.push({ start, end, weight: bm25Idf(index.docCount, end - start) * k1Plus1 });
  }
  terms.sort((a, b) => a.end - a.start - (b.end - b.start) || a.start - b.start);
  let remaining = terms.reduce((sum, term) => sum + term.weight, 0);
  const touched: number[] = [];
  let next = 0;
  for (; next < terms.length; next++) {
    if (touched.length >= topk && remaining < (topOf(touched, scores, topk).at(-1) as Bm25Hit).score) break;
    const { start, end, weight } = terms[next] as (typeof terms)[number];
    // bm25TermScore, inlined with the precomputed length term: this loop is the search.
    for (let p = start; p < end; p++) {
      const doc = index.postingDocs[p] as number;
      const tf = index.postingTfs[p] as number;
      const before = scores[doc] as number;
      if (before === 0) touched.push(doc);
      scores[doc] = before + (weight * tf) / (tf + (norms[doc] as number));
    }
    remaining -= weight;
  }
  for (; next < terms.length; next++) {
    const { start, end, weight } = terms[next] as (typeof terms)[number];
    for (const doc of touched) {
      const p = findPosting(index.postingDocs, start, end, doc);
      if (p < 0) continue;
      const tf = index.postingTfs[p] as number;
      scores[doc] = (scores[doc] as number) + (weight * tf) / (tf + (norms[doc] as number));
    }
  }
  const best = topOf(touched, scores, topk);
  for (const doc of touched) scores[doc] = 0;
  return best;
}
