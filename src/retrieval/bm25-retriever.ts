import { type Bm25Index, documentText } from './bm25-index.js';
import { searchBm25 } from './bm25-search.js';
import type { Retriever } from './retriever.js';

/** The embedded BM25 index behind the `Retriever` interface: no service to run. */
export function createBm25Retriever(index: Bm25Index, name = 'bm25'): Retriever {
  return {
    name,
    search: async (queries, topk) =>
      queries.map((query) =>
        searchBm25(index, query, topk).map((hit) => ({
          id: index.docIds[hit.doc] as string,
          contents: documentText(index, hit.doc),
          score: hit.score,
        })),
      ),
  };
}
