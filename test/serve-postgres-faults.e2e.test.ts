import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { startTestPostgres } from '../src/store/test-utils/start-test-postgres.js';
import { runCli } from './cli-harness.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

const server = await startTestPostgres();
afterAll(() => server.stop());

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field and asserted
type Json = any;

const sample = (id: string) => ({ samples: [{ id, response: '#### 4', reference: '4' }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sql<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The ids a run holds, read without rewardkit (so no lease check runs). */
const storedIds = async (url: string, runId: string) =>
  (await sql<{ sample_id: string }>(url, 'SELECT sample_id FROM results WHERE run_id = $1', [runId])).map(
    (r) => r.sample_id,
  );

const runOf = (serving: ServeProcess) => /store run (\S+?);/.exec(serving.stderr())?.[1] as string;

/**
 * Posts one-sample requests from `workers` loops per server until `stop()`; every answer is kept
 * with the server and the id it carried. A hang guard aborts a request after `guardMs` (the test
 * then fails on status 0).
 */
function load(urls: readonly string[], workers: number, guardMs = 60_000) {
  const answers: { url: string; id: string; status: number; retryAfter: string | null; code?: string }[] = [];
  let running = true;
  let n = 0;
  const loops = urls.flatMap((url) =>
    Array.from({ length: workers }, async () => {
      while (running) {
        const id = `s${n++}`;
        try {
          const res = await postJson(`${url}/v1/rewards`, sample(id), {}, AbortSignal.timeout(guardMs));
          const code = res.status === 200 ? undefined : (res.json() as Json).error?.code;
          answers.push({ url, id, status: res.status, retryAfter: res.headers.get('retry-after'), code });
        } catch {
          answers.push({ url, id, status: 0, retryAfter: null });
        }
      }
    }),
  );
  return {
    answers,
    async until(done: () => boolean, capMs = 60_000) {
      const cap = Date.now() + capMs;
      while (!done() && Date.now() < cap) await sleep(50);
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe.skipIf(!server.available || !server.faults)(
  'serve replicas on a PostgreSQL store under faults',
  () => {
    test('should close the run of a replica killed with SIGKILL as interrupted with its stored counts, while the live replica keeps its run', async () => {
      if (!server.available) return;
      const url = await server.createDatabase();
      const env = { REWARDKIT_RUN_LEASE: '2s' };
      const [killed, alive] = await Promise.all([
        startServe(['--spec', 'math', '--store', url], env),
        startServe(['--spec', 'math', '--store', url], env),
      ]);
      try {
        for (let i = 0; i < 10; i++) {
          expect((await postJson(`${killed.url}/v1/rewards`, sample(`k${i}`))).status).toBe(200);
        }
        expect((await postJson(`${alive.url}/v1/rewards`, sample('a0'))).status).toBe(200);
        await killed.stop('SIGKILL');
        // The live replica's beats (every half second) close the dead one's run within a lease or two.
        const deadRun = runOf(killed);
        const statusOf = async (id: string) =>
          (await sql<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [id]))[0]?.status;
        for (let waited = 0; waited < 20_000 && (await statusOf(deadRun)) === 'running'; waited += 200) {
          await sleep(200);
        }
        expect(await statusOf(deadRun)).toBe('interrupted');

        const listed = await runCli(['runs', 'list', '--store', url], { env });
        expect(listed.code).toBe(0);
        expect(listed.stdout).toMatch(
          new RegExp(`^${deadRun}\\s+interrupted\\s+serve:math .*rows=10 failed=0 mean=1`, 'm'),
        );
        expect(listed.stdout).toMatch(new RegExp(`^${runOf(alive)}\\s+running\\s+serve:math`, 'm'));
      } finally {
        await killed.stop('SIGKILL');
        expect((await alive.stop()).code).toBe(0);
      }
      const [finished] = await sql<{ status: string; summary: Json }>(
        url,
        'SELECT status, summary FROM runs WHERE id = $1',
        [runOf(alive)],
      );
      expect(finished).toMatchObject({ status: 'finished', summary: { rows: 1 } });
    }, 90_000);

    test('should answer 503 store_unavailable with Retry-After on every replica while PostgreSQL is stopped, log the outage once, recover without a restart, and count only what was stored', async () => {
      if (!server.available || !server.faults) return;
      const faults = server.faults;
      const url = await server.createDatabase();
      const env = { REWARDKIT_STORE_TIMEOUT: '5s' };
      const replicas = await Promise.all([
        startServe(['--spec', 'math', '--store', url], env),
        startServe(['--spec', 'math', '--store', url], env),
      ]);
      const traffic = load(
        replicas.map((r) => r.url),
        3,
      );
      const count = (status: number, from = 0) =>
        replicas.every(
          (r) =>
            traffic.answers.slice(from).filter((a) => a.url === r.url && a.status === status).length >= 25,
        );
      try {
        await traffic.until(() => count(200));
        await faults.shutDown();
        try {
          await traffic.until(() => count(503));
        } finally {
          await faults.startAgain();
        }
        const afterRestart = traffic.answers.length;
        await traffic.until(() => count(200, afterRestart));
      } finally {
        await traffic.stop();
      }
      const runIds = replicas.map(runOf);
      for (const replica of replicas) expect((await replica.stop()).code).toBe(0);

      const failed = traffic.answers.filter((a) => a.status !== 200);
      expect(failed.length).toBeGreaterThanOrEqual(50);
      for (const answer of failed) {
        expect(answer).toMatchObject({ status: 503, code: 'store_unavailable' });
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      const listed = await runCli(['runs', 'list', '--store', url]);
      for (const [i, replica] of replicas.entries()) {
        const log = replica.stderr();
        expect(log.match(/store unavailable: /g)).toHaveLength(1);
        expect(log.match(/store available again after/g)).toHaveLength(1);
        expect(log).not.toMatch(/\n\s+at /);
        // Every acknowledged sample is stored; the run's counts are what is stored, not what was tried.
        const runId = runIds[i] as string;
        const stored = new Set(await storedIds(url, runId));
        const acknowledged = traffic.answers.filter((a) => a.url === replica.url && a.status === 200);
        expect(acknowledged.length).toBeGreaterThanOrEqual(50);
        expect(acknowledged.filter((a) => !stored.has(a.id))).toEqual([]);
        expect(listed.stdout).toMatch(
          new RegExp(`^${runId}\\s+finished\\s+serve:math .*rows=${stored.size} failed=0`, 'm'),
        );
      }
    }, 120_000);

    test('should answer a request within its X-Deadline-Ms while PostgreSQL hangs, 503 once the store times out, and /readyz 503 until it answers', async () => {
      if (!server.available || !server.faults) return;
      const faults = server.faults;
      const url = await server.createDatabase();
      const serving = await startServe(['--spec', 'math', '--store', url], { REWARDKIT_STORE_TIMEOUT: '2s' });
      try {
        expect((await postJson(`${serving.url}/v1/rewards`, sample('warm'))).status).toBe(200);
        faults.freeze();
        try {
          // The hang guard only: the deadline answers long before it.
          const guard = () => AbortSignal.timeout(30_000);
          const late = await postJson(
            `${serving.url}/v1/rewards`,
            sample('deadline'),
            { 'X-Deadline-Ms': '3000' },
            guard(),
          );
          expect(late.status).toBe(504);
          expect((late.json() as Json).error).toMatchObject({ code: 'deadline_exceeded', saved: 'unknown' });
          // Without a deadline of its own, the store's timeout ends the wait.
          const timedOut = await postJson(`${serving.url}/v1/rewards`, sample('timeout'), {}, guard());
          expect(timedOut.status).toBe(503);
          expect((timedOut.json() as Json).error.code).toBe('store_unavailable');
          expect(timedOut.headers.get('retry-after')).not.toBeNull();
          const ready = await fetch(`${serving.url}/readyz`, { signal: guard() });
          expect(ready.status).toBe(503);
          const health = (await (await fetch(`${serving.url}/healthz`, { signal: guard() })).json()) as Json;
          expect(health).toMatchObject({ status: 'ok', store: { state: 'unavailable' } });
        } finally {
          faults.thaw();
        }
        let status = 0;
        for (let tries = 0; tries < 100 && status !== 200; tries++) {
          status = (await postJson(`${serving.url}/v1/rewards`, sample(`after-${tries}`))).status;
          if (status !== 200) await sleep(200);
        }
        expect(status).toBe(200);
        expect((await fetch(`${serving.url}/readyz`)).status).toBe(200);
      } finally {
        faults.thaw();
        expect((await serving.stop()).code).toBe(0);
      }
    }, 120_000);
  },
);
