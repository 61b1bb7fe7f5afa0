/**
 * `rewardkit/retrieval`: a BM25 index (build, save, load, search), retrievers over it or over
 * HTTP, and the retriever server. Scoring pieces and file-format details stay inside.
 */
export { readBm25Index, writeBm25Index } from './bm25-files.js';
export {
  type Bm25Index,
  type Bm25Params,
  buildBm25Index,
  type CorpusDoc,
  DEFAULT_BM25_PARAMS,
} from './bm25-index.js';
export { createBm25Retriever } from './bm25-retriever.js';
export { type Bm25Hit, searchBm25 } from './bm25-search.js';
export { createHttpRetriever, type HttpRetrieverOptions } from './http-retriever.js';
export { readCorpus } from './read-corpus.js';
export { renderDocuments } from './render-documents.js';
export type { RetrievedDoc, Retriever } from './retriever.js';
export { createRetrieverApp, type RetrieverAppOptions } from './retriever-app.js';
