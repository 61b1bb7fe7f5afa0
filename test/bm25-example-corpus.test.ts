import { join } from 'node:path';
import { expect, test } from 'vitest';
import { buildBm25Index, readCorpus, searchBm25 } from '../src/retrieval/index.js';
import { readJsonl, repoRoot } from './cli-harness.js';

// The shipped example corpus: 255 invented documents (English and Chinese) and 120 queries whose
// answer documents are known. A regression in tokenization or scoring shows up as lost recall.
test('should find an answer document in the top 3 for nearly every example query', async () => {
  const { docs, failed } = await readCorpus(join(repoRoot, 'examples/corpus/corpus.jsonl'));
  expect(failed).toEqual([]);
  expect(docs).toHaveLength(255);
  const index = buildBm25Index(docs);
  const queries = readJsonl(join(repoRoot, 'examples/corpus/queries.jsonl')) as Array<{
    query: string;
    doc_ids: string[];
  }>;
  const recall = (k: number, filter: (q: { query: string }) => boolean = () => true) => {
    const subset = queries.filter(filter);
    const hits = subset.filter((q) =>
      searchBm25(index, q.query, k).some((h) => q.doc_ids.includes(index.docIds[h.doc] as string)),
    );
    return hits.length / subset.length;
  };
  const chinese = (q: { query: string }) => /\p{Script=Han}/u.test(q.query);
  expect(queries).toHaveLength(120);
  expect(recall(3)).toBeGreaterThanOrEqual(0.95);
  expect(recall(1)).toBeGreaterThanOrEqual(0.85);
  expect(recall(3, chinese)).toBe(1);
  // Queries that name only attributes (river and product), never the town itself.
  expect(recall(3, (q) => q.query.includes('known for'))).toBeGreaterThanOrEqual(0.9);
});
