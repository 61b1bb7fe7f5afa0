import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ServeProcess, startServe } from './serve-harness.js';

/** Runs a Python 3 script with the server's URL as argv[1]; its stdout is one JSON line. */
function python(script: string, url: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile('python3', ['-c', script, url], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>);
    });
  });
}

// What verl's and OpenRLHF's clients do: urllib/requests write the whole body, then read.
const URLLIB_POST = `
import json, sys, urllib.request, urllib.error
url, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
body = json.dumps({"samples": [{"id": str(i), "response": "x" * size, "reference": "1"} for i in range(n)]}).encode()
req = urllib.request.Request(url + "/v1/rewards", data=body, headers={"Content-Type": "application/json"})
try:
    with urllib.request.urlopen(req, timeout=30) as r:
        print(json.dumps({"status": r.status}))
except urllib.error.HTTPError as e:
    print(json.dumps({"status": e.code, "retry_after": e.headers.get("Retry-After"), "body": json.loads(e.read())}))
except Exception as e:
    print(json.dumps({"error": type(e).__name__ + ": " + str(e)}))
`;

const urllibPost = (url: string, samples: number, responseBytes: number) =>
  python(`import sys; sys.argv[2:] = ["${samples}", "${responseBytes}"]\n${URLLIB_POST}`, url);

/**
 * Writes `parts` to a raw socket `gapMs` apart (stopping once the server closes it) and resolves
 * with all the server sent, when it closes the connection or `waitMs` after the last part.
 */
function rawExchange(url: string, parts: readonly string[], gapMs: number, waitMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let closed = false;
    socket.on('data', (d) => (received += d));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      resolve(received);
    });
    let next = 0;
    const send = () => {
      if (closed) return;
      if (next < parts.length) {
        socket.write(parts[next++] as string);
        setTimeout(send, gapMs);
      } else {
        setTimeout(() => {
          socket.destroy();
          if (!closed) reject(new Error(`the server kept the connection open; got: ${received}`));
        }, waitMs);
      }
    };
    socket.on('connect', send);
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('request limits a client can rely on', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe([
      '--spec',
      'math',
      '--max-body',
      '1MiB',
      '--headers-timeout',
      '1s',
      '--body-timeout',
      '1500ms',
    ]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('should answer 413 to a client that writes a whole oversized body before reading (urllib)', async () => {
    // 20 MB against a 1 MiB limit: more than the socket buffers, so the server must read it.
    const answer = await urllibPost(server.url, 2000, 10_000);
    expect(answer).toMatchObject({
      status: 413,
      body: { error: { code: 'payload_too_large', message: expect.stringMatching(/--max-body/) } },
    });
  });

  test('should answer a request larger than the queue can ever hold with 413 naming the flags, not 429', async () => {
    const answer = await urllibPost(server.url, 1100, 10);
    expect(answer).toMatchObject({
      status: 413,
      retry_after: null,
      body: {
        error: {
          code: 'too_many_jobs',
          message: expect.stringMatching(/1100 jobs.*--max-queue 1024.*--concurrency 8/),
          jobs: 1100,
          capacity: 1032,
        },
      },
    });
  });

  test('should answer 413 to a chunked body that grows past --max-body, after taking the rest of it', async () => {
    const chunk = 'x'.repeat(256 * 1024);
    const chunked = `${(256 * 1024).toString(16)}\r\n${chunk}\r\n`;
    const head =
      'POST /v1/rewards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n';
    // 2 MiB in 256 KiB chunks against a 1 MiB limit, all written before anything is read.
    const response = await rawExchange(server.url, [`${head}${chunked.repeat(8)}0\r\n\r\n`], 0);
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(bodyOf(response).error.code).toBe('payload_too_large');
  });

  test('should spend the deadline on reading the body too: 504 when the body arrives after it', async () => {
    const body = JSON.stringify({ samples: [{ id: 'a', response: '\\boxed{1}', reference: '1' }] });
    const quarter = Math.ceil(body.length / 4);
    const head = `POST /v1/rewards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Deadline-Ms: 150\r\nConnection: close\r\n\r\n`;
    // The body takes ~600 ms to arrive, within the body timeout and past the 150 ms deadline; the
    // server takes the rest of it before it answers.
    const parts = [head, ...[0, 1, 2, 3].map((i) => body.slice(i * quarter, (i + 1) * quarter))];
    const response = await rawExchange(server.url, parts, 200);
    expect(response).toMatch(/^HTTP\/1\.1 504/);
    expect(bodyOf(response).error).toMatchObject({
      code: 'deadline_exceeded',
      message: expect.stringMatching(/150 ms exceeded while reading/),
    });
  });

  test('should cut a body that trickles past --body-timeout with 408 and close the connection', async () => {
    const head =
      'POST /v1/rewards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{';
    const response = await rawExchange(server.url, [head, ...Array.from({ length: 100 }, () => ' ')], 100);
    expect(response).toMatch(/^HTTP\/1\.1 408/);
    expect(bodyOf(response).error).toMatchObject({
      code: 'body_timeout',
      message: 'the request body did not arrive within 1500 ms (--body-timeout)',
    });
  });

  test('should cut headers that trickle past --headers-timeout with 408 and close the connection', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: 1\r\n`);
    const response = await rawExchange(
      server.url,
      ['POST /v1/rewards HTTP/1.1\r\nHost: x\r\n', ...lines],
      100,
    );
    expect(response).toMatch(/^HTTP\/1\.1 408/);
  });

  test('should still answer after all of that', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
  });
});
