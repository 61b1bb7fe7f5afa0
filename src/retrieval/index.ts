export { type Bm25Manifest, Bm25ManifestSchema, readBm25Index, writeBm25Index } from './bm25-files.js';
export {
  BM25_FORMAT,
  type Bm25Index,
  type Bm25Params,
  buildBm25Index,
  type CorpusDoc,
  DEFAULT_BM25_PARAMS,
  documentText,
} from './bm25-index.js';
export { createBm25Retriever } from './bm25-retriever.js';
export { type Bm25Hit, bm25Idf, bm25TermScore, searchBm25 } from './bm25-search.js';
export { CorpusRowSchema } from './corpus-row.js';
export { createHttpRetriever, type HttpRetrieverOptions, RetrieverResponseSchema } from './http-retriever.js';
export { type FailedCorpusRow, readCorpus } from './read-corpus.js';
export { renderDocuments } from './render-documents.js';
export type { RetrievedDoc, Retriever } from './retriever.js';
export { createRetrieverApp, type RetrieverAppOptions } from './retriever-app.js';
export { tokenize } from './tokenize.js';
