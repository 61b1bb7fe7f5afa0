import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpBatchReward } from './rlvr-http-reward.js';
import { rlvrTasks } from './rlvr-tasks.js';

const items = rlvrTasks('addition', 2, 0).map((task, i) => ({ task, response: `r${i}`, id: `x-${i}` }));
let server: Server | undefined;
afterEach(() => server?.close());

/** A fault-injecting server: each request is answered by the next scripted status and body. */
async function scripted(answers: [number, unknown][]): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const [status, body] = answers.shift() ?? [500, { error: { message: 'script ran out' } }];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const result = (id: string, reward: number | null) => ({
  spec: 'rk/v1',
  id,
  status: reward === null ? 'failed' : 'ok',
  reward,
  components: {},
  evidence: [],
  warnings: [],
  errors: reward === null ? ['math: no answer'] : [],
  timings: { total_ms: 1 },
});

describe('httpBatchReward', () => {
  it('should read the batch route’s results by id, a failed result as failed', async () => {
    const url = await scripted([[200, { results: [result('x-1', null), result('x-0', 1)] }]]);
    const reward = httpBatchReward(url, async () => {});
    expect(await reward.scoreBatch(items)).toEqual([{ reward: 1 }, { failed: 'math: no answer' }]);
  });

  it('should fail every rollout of the batch with the reason on a 5xx, and when the server is gone', async () => {
    const url = await scripted([[503, { error: { code: 'overloaded', message: 'queue full' } }]]);
    const reward = httpBatchReward(url, async () => {});
    expect(await reward.scoreBatch(items)).toEqual(Array(2).fill({ failed: 'http: 503 queue full' }));
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    expect(await reward.scoreBatch(items)).toEqual(
      Array(2).fill({ failed: `http: ${url} unreachable (ECONNREFUSED)` }),
    );
  });
});
