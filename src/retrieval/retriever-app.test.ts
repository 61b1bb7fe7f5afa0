import { describe, expect, test } from 'vitest';
import { buildBm25Index } from './bm25-index.js';
import { createBm25Retriever } from './bm25-retriever.js';
import { createHttpRetriever } from './http-retriever.js';
import { createRetrieverApp } from './retriever-app.js';

const app = createRetrieverApp(
  createBm25Retriever(
    buildBm25Index([
      { id: 'a', contents: 'Velmora\nA river town founded by Isel Tarn.' },
      { id: 'b', contents: 'Keth\nA port city.' },
    ]),
  ),
  { maxTopk: 5 },
);
const post = (body: unknown) =>
  app.request('http://localhost/retrieve', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('createRetrieverApp', () => {
  test('should answer the contract that createHttpRetriever reads', async () => {
    const client = createHttpRetriever({
      url: 'http://localhost/retrieve',
      fetch: async (input, init) => app.request(String(input), init as RequestInit),
    });
    const got = await client.search(['who founded velmora', 'port city', 'zebra'], 1);
    expect(got).toEqual([
      [{ id: 'a', contents: 'Velmora\nA river town founded by Isel Tarn.', score: expect.any(Number) }],
      [{ id: 'b', contents: 'Keth\nA port city.', score: expect.any(Number) }],
      [],
    ]);
  });

  test.each([
    ['not JSON', '{', 'the request body is not JSON'],
    ['no queries', { topk: 3 }, 'field "queries": Invalid input: expected array, received undefined'],
    [
      'a topk over the limit',
      { queries: ['x'], topk: 50 },
      'field "topk": Too big: expected number to be <=5',
    ],
  ])('should answer 400 to %s, naming the field', async (_name, body, error) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
  });

  test('should answer 502 when the retriever fails', async () => {
    const failing = createRetrieverApp({
      name: 'down',
      search: () => Promise.reject(new Error('index gone')),
    });
    const res = await failing.request('http://localhost/retrieve', {
      method: 'POST',
      body: '{"queries": ["x"]}',
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 'the retriever failed: index gone' });
  });
});
