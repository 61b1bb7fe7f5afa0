/** One document a retriever returned for a query. */
export interface RetrievedDoc {
  /** The corpus id, when the retriever reports one. */
  readonly id?: string;
  /** The text; by convention its first line is the title (see `renderDocuments`). */
  readonly contents: string;
  /** The retriever's relevance score (BM25 for the embedded index); higher is more relevant. */
  readonly score: number;
}

/**
 * A search backend. One call answers a batch of queries, in order: `result[i]` holds at most `topk`
 * documents for `queries[i]`, best first. Failures throw a `RewardKitError`; an empty list means the
 * search ran and found nothing.
 */
export interface Retriever {
  readonly name: string;
  search(queries: readonly string[], topk: number): Promise<RetrievedDoc[][]>;
}
