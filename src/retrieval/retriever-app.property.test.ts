import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkProperty } from '../core/test-utils/check-property.js';
import type { Retriever } from './retriever.js';
import { createRetrieverApp } from './retriever-app.js';

/** Answers `topk` documents per query and counts the searches, so a 200 can be checked against what ran. */
const searches: { queries: readonly string[]; topk: number }[] = [];
const retriever: Retriever = {
  name: 'counting',
  async search(queries, topk) {
    searches.push({ queries, topk });
    return queries.map((q) =>
      Array.from({ length: topk }, (_, i) => ({ id: `${i}`, contents: q, score: 1 / (i + 1) })),
    );
  },
};
const app = createRetrieverApp(retriever, { maxTopk: 10, maxQueries: 8 });

const body = fc.oneof(
  {
    arbitrary: fc
      .record(
        {
          queries: fc.array(fc.string({ maxLength: 10, unit: 'binary' }), { minLength: 1, maxLength: 8 }),
          topk: fc.integer({ min: 1, max: 10 }),
        },
        { requiredKeys: ['queries'] },
      )
      .map((v) => JSON.stringify(v)),
    weight: 3,
  },
  {
    arbitrary: fc
      .record(
        {
          queries: fc.oneof(
            fc.array(fc.string({ maxLength: 10, unit: 'binary' }), { maxLength: 10 }),
            fc.jsonValue({ maxDepth: 1 }),
          ),
          topk: fc.oneof(fc.integer({ min: -1, max: 12 }), fc.double(), fc.jsonValue({ maxDepth: 0 })),
          return_scores: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 0 })),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    weight: 4,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), weight: 1 },
  { arbitrary: fc.string({ maxLength: 40, unit: 'binary' }), weight: 1 },
  {
    arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
    weight: 1,
  },
);

describe('POST /retrieve bodies (property-based)', () => {
  test('should answer any body with a 400 naming the problem or a 200 with topk documents per query', async () => {
    await checkProperty(
      'retriever bodies',
      fc.asyncProperty(
        body,
        fc.constantFrom('application/json', 'text/plain', undefined),
        async (text, type) => {
          searches.length = 0;
          const res = await app.request('http://localhost/retrieve', {
            method: 'POST',
            headers: type === undefined ? {} : { 'content-type': type },
            body: text,
          });
          const json = (await res.json()) as { result: unknown[][] };
          if (res.status !== 200) {
            expect(res.status).toBe(400);
            expect(json).toEqual({ error: expect.stringMatching(/\S/) });
            expect(searches).toEqual([]);
            return;
          }
          const sent = JSON.parse(text);
          expect(searches).toEqual([{ queries: sent.queries, topk: sent.topk ?? 3 }]);
          expect(json.result.length).toBe(sent.queries.length);
          for (const docs of json.result) expect(docs.length).toBe(sent.topk ?? 3);
        },
      ),
      500,
    );
  });
});
