import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpRetriever } from './http-retriever.js';

type Handler = (body: { queries: string[]; topk: number }, res: ServerResponse) => void;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A retrieval server answering each request with the next handler; the last one repeats. */
async function serve(...handlers: Handler[]) {
  const bodies: unknown[] = [];
  let calls = 0;
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const body = JSON.parse(text);
      bodies.push(body);
      const handler = handlers[Math.min(calls++, handlers.length - 1)] as Handler;
      handler(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/retrieve`;
  return { url, bodies, calls: () => calls };
}

const json =
  (value: unknown, status = 200): Handler =>
  (_body, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof value === 'string' ? value : JSON.stringify(value));
  };
const answer: Handler = (body, res) =>
  json({
    result: body.queries.map((q) =>
      Array.from({ length: body.topk }, (_, i) => ({
        document: { id: `${q}-${i}`, contents: `T ${q}\nbody ${i}` },
        score: 10 - i,
      })),
    ),
  })(body, res);

describe('createHttpRetriever', () => {
  test('should post the contract body and return one list per query', async () => {
    const server = await serve(answer);
    const retriever = createHttpRetriever({ url: server.url });
    const got = await retriever.search(['alpha', 'beta'], 2);
    expect(server.bodies).toEqual([{ queries: ['alpha', 'beta'], topk: 2, return_scores: true }]);
    expect(got).toEqual([
      [
        { id: 'alpha-0', contents: 'T alpha\nbody 0', score: 10 },
        { id: 'alpha-1', contents: 'T alpha\nbody 1', score: 9 },
      ],
      [
        { id: 'beta-0', contents: 'T beta\nbody 0', score: 10 },
        { id: 'beta-1', contents: 'T beta\nbody 1', score: 9 },
      ],
    ]);
  });

  test('should retry 503 and a cut connection, then succeed', async () => {
    const server = await serve(json({ error: 'busy' }, 503), (_b, res) => res.socket?.destroy(), answer);
    const got = await createHttpRetriever({ url: server.url, backoffMs: 1 }).search(['q'], 1);
    expect(server.calls()).toBe(3);
    expect(got[0]?.[0]?.contents).toBe('T q\nbody 0');
  });

  test('should give up after the retries with every attempt named', async () => {
    const server = await serve(json({ error: 'down' }, 500));
    const retriever = createHttpRetriever({ url: server.url, maxRetries: 1, backoffMs: 1 });
    await expect(retriever.search(['q'], 1)).rejects.toThrow(
      `retriever ${server.url} failed after 2 attempt(s): attempt 1: HTTP 500: {"error":"down"}; attempt 2: HTTP 500: {"error":"down"}`,
    );
  });

  test('should time out a hanging server', async () => {
    const server = await serve(() => {});
    const retriever = createHttpRetriever({ url: server.url, timeoutMs: 50, maxRetries: 1, backoffMs: 1 });
    await expect(retriever.search(['q'], 1)).rejects.toThrow(/attempt 2: timed out after 50 ms$/);
    expect(server.calls()).toBe(2);
  });

  test.each([
    ['a 400', json({ error: 'bad topk' }, 400), /attempt 1: HTTP 400: \{"error":"bad topk"\}$/],
    ['a body that is not JSON', json('<html>'), /the body is not JSON: <html>/],
    [
      'a document without contents',
      json({ result: [[{ document: { text: 'x' }, score: 1 }]] }),
      /breaks the contract at field "result\.0\.0\.document\.contents"/,
    ],
    ['a missing score', json({ result: [[{ document: { contents: 'x' } }]] }), /field "result\.0\.0\.score"/],
    ['too few lists', json({ result: [] }), /field "result" has 0 lists for 1 queries/],
  ])('should fail at once, without retrying, on %s', async (_name, handler, message) => {
    const server = await serve(handler);
    await expect(createHttpRetriever({ url: server.url, backoffMs: 1 }).search(['q'], 1)).rejects.toThrow(
      message,
    );
    expect(server.calls()).toBe(1);
  });

  test('should name a server that refuses connections', async () => {
    const server = await serve(answer);
    await close?.();
    close = undefined;
    const retriever = createHttpRetriever({ url: server.url, maxRetries: 0 });
    await expect(retriever.search(['q'], 1)).rejects.toThrow(
      /failed after 1 attempt\(s\): attempt 1: fetch failed \(.*ECONNREFUSED/,
    );
  });
});
