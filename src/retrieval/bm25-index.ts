import { RewardKitError } from '../core/index.js';
import { tokenize } from './tokenize.js';

/** The on-disk and in-memory format tag; a reader refuses any other. */
export const BM25_FORMAT = 'rk-bm25/v1';

export interface Bm25Params {
  /** Term-frequency saturation (default 1.2). */
  k1: number;
  /** Length normalization, 0 (none) to 1 (full) (default 0.75). */
  b: number;
}

export const DEFAULT_BM25_PARAMS: Bm25Params = { k1: 1.2, b: 0.75 };

/**
 * An inverted index in flat typed arrays, so it is written and loaded as a few contiguous buffers:
 * the postings of term `t` are `postingDocs/postingTfs[termOffsets[t] .. termOffsets[t + 1])`,
 * sorted by document number. Document texts stay UTF-8 bytes until a hit is returned.
 */
export interface Bm25Index {
  readonly params: Bm25Params;
  readonly docCount: number;
  readonly avgDocLength: number;
  /** Term → term number; term numbers follow the sorted order of the terms. */
  readonly terms: ReadonlyMap<string, number>;
  readonly termOffsets: Uint32Array;
  readonly postingDocs: Uint32Array;
  readonly postingTfs: Uint32Array;
  readonly docLengths: Uint32Array;
  readonly docIds: readonly string[];
  readonly docOffsets: Uint32Array;
  readonly docBytes: Uint8Array;
}

/** A corpus document: its id and its text (first line = title). */
export interface CorpusDoc {
  readonly id: string;
  readonly contents: string;
}

const utf8 = new TextEncoder();
const MAX_BYTES = 0xffff_ffff;

/** The text of document `doc` of the index. */
export function documentText(index: Bm25Index, doc: number): string {
  const start = index.docOffsets[doc] as number;
  const end = index.docOffsets[doc + 1] as number;
  return Buffer.from(index.docBytes.buffer, index.docBytes.byteOffset + start, end - start).toString('utf8');
}

/**
 * Builds the index of `docs` in one pass over the documents, then lays the postings out by term.
 * Terms are numbered in sorted order so the same corpus always gives byte-identical files.
 */
export function buildBm25Index(
  docs: Iterable<CorpusDoc>,
  params: Bm25Params = DEFAULT_BM25_PARAMS,
): Bm25Index {
  const firstIds = new Map<string, number>();
  const df: number[] = [];
  // Per document, its (term, tf) pairs in flat arrays: [docTermStart[d], docTermStart[d + 1]).
  const docTermIds: number[] = [];
  const docTermTfs: number[] = [];
  const docTermStart: number[] = [0];
  const lengths: number[] = [];
  const ids: string[] = [];
  const texts: Uint8Array[] = [];
  let totalBytes = 0;
  let totalLength = 0;
  for (const doc of docs) {
    const counts = new Map<string, number>();
    const tokens = tokenize(doc.contents);
    for (const term of tokens) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let id = firstIds.get(term);
      if (id === undefined) {
        id = df.length;
        firstIds.set(term, id);
        df.push(0);
      }
      df[id] = (df[id] as number) + 1;
      docTermIds.push(id);
      docTermTfs.push(tf);
    }
    docTermStart.push(docTermIds.length);
    lengths.push(tokens.length);
    totalLength += tokens.length;
    ids.push(doc.id);
    const bytes = utf8.encode(doc.contents);
    totalBytes += bytes.length;
    if (totalBytes > MAX_BYTES)
      throw new RewardKitError(
        'RK_USAGE',
        'the corpus text exceeds 4 GiB, the limit of the embedded BM25 index; serve it with an HTTP retriever instead',
      );
    texts.push(bytes);
  }
  const sorted = [...firstIds.keys()].sort();
  const renumber = new Uint32Array(sorted.length);
  sorted.forEach((term, i) => {
    renumber[firstIds.get(term) as number] = i;
  });
  const termOffsets = new Uint32Array(sorted.length + 1);
  for (let old = 0; old < df.length; old++) termOffsets[(renumber[old] as number) + 1] = df[old] as number;
  for (let t = 0; t < sorted.length; t++)
    termOffsets[t + 1] = (termOffsets[t + 1] as number) + (termOffsets[t] as number);
  const fill = termOffsets.slice(0, sorted.length);
  const postingDocs = new Uint32Array(docTermIds.length);
  const postingTfs = new Uint32Array(docTermIds.length);
  for (let d = 0; d < ids.length; d++) {
    for (let p = docTermStart[d] as number; p < (docTermStart[d + 1] as number); p++) {
      const t = renumber[docTermIds[p] as number] as number;
      const at = fill[t] as number;
      postingDocs[at] = d;
      postingTfs[at] = docTermTfs[p] as number;
      fill[t] = at + 1;
    }
  }
  const docOffsets = new Uint32Array(ids.length + 1);
  const docBytes = new Uint8Array(totalBytes);
  texts.forEach((bytes, d) => {
    docBytes.set(bytes, docOffsets[d] as number);
    docOffsets[d + 1] = (docOffsets[d] as number) + bytes.length;
  });
  return {
    params,
    docCount: ids.length,
    avgDocLength: ids.length === 0 ? 0 : totalLength / ids.length,
    terms: new Map(sorted.map((term, i) => [term, i])),
    termOffsets,
    postingDocs,
    postingTfs,
    docLengths: Uint32Array.from(lengths),
    docIds: ids,
    docOffsets,
    docBytes,
  };
}
