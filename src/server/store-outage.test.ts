import { describe, expect, test } from 'vitest';
import { RewardKitError } from '../core/index.js';
import { createEvaluator, loadSpec } from '../spec/index.js';
import { createCodeSandbox } from '../verify/code/index.js';
import { createRewardApp, type RewardAppDeps } from './create-reward-app.js';
import { createStoreOutage } from './store-outage.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field and asserted
type Json = any;

const unavailable = () =>
  new RewardKitError('RK_STORE_UNAVAILABLE', 'Store postgres://db/rk: INSERT failed: connect ECONNREFUSED', {
    isRetryable: true,
  });

/** A math server whose store is scripted: `store.down` makes saves and pings fail, `hang` never settle. */
function serverWithStore(extra: Partial<RewardAppDeps> = {}) {
  const lines: string[] = [];
  const store = { down: false, hang: false, saved: 0 };
  const never = new Promise<void>(() => {});
  const built = createRewardApp({
    evaluator: createEvaluator(loadSpec('math')),
    codeSandbox: () => createCodeSandbox(),
    record: async () => {
      if (store.hang) return never;
      if (store.down) throw unavailable();
      store.saved++;
    },
    store: {
      ping: async () => {
        if (store.hang) return never;
        if (store.down) throw unavailable();
      },
    },
    log: (line) => lines.push(line),
    runId: 'run-1',
    ...extra,
  });
  const post = (id: string, headers: Record<string, string> = {}) =>
    Promise.resolve(
      built.app.request('http://localhost/v1/rewards', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ samples: [{ id, response: '#### 4', reference: '4' }] }),
      }),
    );
  const get = (path: string) => Promise.resolve(built.app.request(`http://localhost${path}`));
  return { ...built, post, get, lines, store };
}

describe('the server while its store is unavailable', () => {
  test('should answer 503 store_unavailable with Retry-After, and log one line per outage, not per request', async () => {
    const { post, get, lines, store, app } = serverWithStore();
    expect((await post('before')).status).toBe(200);
    store.down = true;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(`down-${i}`)));
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = (await res.json()) as Json;
      expect(body.error.code).toBe('store_unavailable');
      expect(body.error.message).toMatch(/retry later: Store postgres:\/\/db\/rk: INSERT failed/);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^store unavailable: .*ECONNREFUSED; answering 503 store_unavailable/);
    const health = (await (await get('/healthz')).json()) as Json;
    expect(health).toMatchObject({ status: 'ok', store: { state: 'unavailable', failed_requests: 20 } });

    store.down = false;
    expect((await post('after')).status).toBe(200);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^store available again after [\d.]+ s; 20 request\(s\) were answered 503/);
    expect(((await (await get('/healthz')).json()) as Json).store).toEqual({ state: 'ok' });
    const metrics = await (await app.request('http://localhost/metrics')).text();
    expect(metrics).toContain('rewardkit_failures_total{kind="store_unavailable"} 20');
    expect(metrics).not.toContain('kind="internal"');
  });

  test('should still answer a store error that retrying cannot fix with 500 and its stack', async () => {
    const lines: string[] = [];
    const { post } = serverWithStore({
      record: async () => {
        throw new RewardKitError('RK_STORE', 'Store x: INSERT failed: violates foreign key constraint');
      },
      log: (line) => lines.push(line),
    });
    const res = await post('x');
    expect(res.status).toBe(500);
    expect(((await res.json()) as Json).error.code).toBe('RK_STORE');
    expect(lines[0]).toMatch(/violates foreign key constraint\n\s+at /);
  });

  test('should answer /readyz 200 while the store answers and 503 with Retry-After when it does not', async () => {
    const { get, store, lines } = serverWithStore();
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', store: { state: 'ok' } });
    store.down = true;
    const down = await get('/readyz');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).not.toBeNull();
    expect(((await down.json()) as Json).error.code).toBe('store_unavailable');
    store.down = false;
    store.hang = true;
    // A store that does not answer is not ready either; the probe gives up on its own.
    const hung = await get('/readyz');
    expect(hung.status).toBe(503);
    expect(((await hung.json()) as Json).error.message).toMatch(/did not answer within \d+ ms/);
    store.hang = false;
    expect((await get('/readyz')).status).toBe(200);
    // One outage (two failed probes), begun and ended once.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^store available again after [\d.]+ s; 2 request\(s\) were answered 503/);
  });

  test('should answer /readyz 200 without a store', async () => {
    const { get } = serverWithStore({ store: undefined });
    expect((await get('/readyz')).status).toBe(200);
  });
});

describe('the server while its store hangs', () => {
  test("should answer 504 at the request's deadline when the save does not finish, saying the save's fate is unknown", async () => {
    const { post, store } = serverWithStore();
    store.hang = true;
    const res = await post('hung', { 'X-Deadline-Ms': '200' });
    expect(res.status).toBe(504);
    const body = (await res.json()) as Json;
    expect(body.error).toMatchObject({ code: 'deadline_exceeded', finished: 1, total: 1, saved: 'unknown' });
    expect(body.error.message).toMatch(/while saving the results.*retrying the request is safe/);
  });
});

describe('createStoreOutage', () => {
  test('should log the start and the end of each outage once, with its length and failed requests', () => {
    const lines: string[] = [];
    let now = 1_000;
    const outage = createStoreOutage(
      (line) => lines.push(line),
      () => now,
    );
    outage.answered();
    expect(lines).toEqual([]);
    const first = outage.failed(unavailable());
    outage.failed(unavailable());
    expect(first).toMatchObject({
      status: 503,
      apiCode: 'store_unavailable',
      headers: { 'Retry-After': '2' },
    });
    expect(outage.state()).toEqual({
      state: 'unavailable',
      since: new Date(1_000).toISOString(),
      failed_requests: 2,
      error: unavailable().message,
    });
    now = 7_500;
    outage.answered();
    outage.answered();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      'store available again after 6.5 s; 2 request(s) were answered 503 during the outage',
    );
    outage.failed(unavailable());
    expect(lines).toHaveLength(3);
  });
});
