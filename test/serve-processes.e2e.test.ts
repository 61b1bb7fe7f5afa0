import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqliteStore } from '../src/store/index.js';
import { type StoredSourceStats, sourceStatsKey } from '../src/store/run-version.js';
import { runShardsFolder } from '../src/store/sqlite-shard.js';
import { runCli, tempDir } from './cli-harness.js';
import { postJson, startServe } from './serve-harness.js';

const batch = (i: number) => ({
  query: [`Q${i}: 2+2? #### 4`, `Q${i}: 2+3? #### 6`],
  prompts: [`Q${i}: 2+2? `, `Q${i}: 2+3? `],
  labels: ['4', '5'],
});

/** Asks /healthz on fresh connections until `count` different processes answered (at most `tries` asks). */
async function pidsAnswering(url: string, count: number, tries = 200): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < tries && pids.size < count; i++) {
    const res = await fetch(`${url}/healthz`, { headers: { connection: 'close' } });
    pids.add(((await res.json()) as { pid: number }).pid);
  }
  return pids;
}

describe('serve --processes', () => {
  test('should share one port among the processes, store every result in one run and finish it with the merged summary', async () => {
    const dir = tempDir();
    const storePath = join(dir, 'store.sqlite');
    const serving = await startServe(['--spec', 'math', '--processes', '2', '--store', storePath]);
    let requests = 0;
    const requestIds: string[] = [];
    try {
      expect((await pidsAnswering(serving.url, 2)).size).toBe(2);
      const answers = await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          const res = await postJson(`${serving.url}/get_reward`, batch(i), { connection: 'close' });
          requests++;
          return res;
        }),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect((answer.json() as { rewards: number[] }).rewards).toEqual([1, 0]);
        requestIds.push(answer.headers.get('x-request-id') as string);
      }
      // The copies append to shards of their own; the primary merges them into the store file
      // while serving, so a reader sees the rows before the server stops.
      const reader = openSqliteStore(storePath, { readonly: true });
      try {
        const [run] = await reader.listRuns();
        let seen = 0;
        for (let i = 0; i < 200 && seen < requests * 2; i++) {
          seen = (await reader.completedIds(run?.id as string)).size;
          if (seen < requests * 2) await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(seen).toBe(requests * 2);
        expect(existsSync(runShardsFolder(storePath, run?.id as string))).toBe(true);
      } finally {
        await reader.close();
      }
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
    expect(serving.stderr()).toContain('2 processes');
    expect(serving.stderr()).toMatch(/merged \d+ results from the processes' shards/);
    // Ids the server makes are time-ordered UUIDs (version 7).
    for (const id of requestIds)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const store = openSqliteStore(storePath);
    try {
      const [run] = await store.listRuns();
      expect(run?.status).toBe('finished');
      expect(run?.summary).toMatchObject({
        rows: requests * 2,
        scored: requests * 2,
        failed: 0,
        mean_reward: 0.5,
      });
      expect((await store.listResults(run?.id as string, { limit: 1000 })).length).toBe(requests * 2);
      // The processes' tallies covered the run (a row per saved result), so the finish kept them
      // instead of reading every row: the math source scored every row, half of them right.
      const kept = (await store.getState(sourceStatsKey(run?.id as string))) as StoredSourceStats;
      expect(kept.sources).toEqual([{ source: 'math', count: requests * 2, mean: 0.5, invalid: 0 }]);
      // Merged and finished: the shards are gone.
      expect(existsSync(runShardsFolder(storePath, run?.id as string))).toBe(false);
      // The processes' rows reach the store through their shards with their request and text.
      const [requestId] = requestIds;
      const ofRequest = await store.listResults(run?.id as string, { requestId: requestId as string });
      expect(ofRequest.map((r) => [r.id, r.reward])).toEqual([
        [`${requestId}-0`, 1],
        [`${requestId}-1`, 0],
      ]);
      const page = await store.querySamples(run?.id as string, {
        text: `${requestId}-1`,
        limit: 10,
        offset: 0,
      });
      expect(page.rows.map((row) => row.response_preview)).toEqual(['#### 6']);
      expect(await store.getSampleText(run?.id as string, `${requestId}-1`)).toMatchObject({
        response: '#### 6',
        reference: '5',
      });
    } finally {
      await store.close();
    }
  });

  test('should store the results without the text under --no-sample-text, each copy appending on its event loop under REWARDKIT_STORE_WRITER=inline', async () => {
    const storePath = join(tempDir(), 'store.sqlite');
    const serving = await startServe(
      ['--spec', 'math', '--processes', '2', '--no-sample-text', '--store', storePath],
      { REWARDKIT_STORE_WRITER: 'inline' },
    );
    let requestId: string;
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => postJson(`${serving.url}/get_reward`, batch(i))),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      requestId = answers[0]?.headers.get('x-request-id') as string;
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
    const store = openSqliteStore(storePath);
    try {
      const [run] = await store.listRuns();
      expect((await store.listResults(run?.id as string)).length).toBe(16);
      expect(await store.getSampleText(run?.id as string, `${requestId}-0`)).toBeUndefined();
      expect(existsSync(runShardsFolder(storePath, run?.id as string))).toBe(false);
    } finally {
      await store.close();
    }
  });

  test('should lose no acknowledged result when the whole server is killed: the next open merges the shards', async () => {
    const storePath = join(tempDir(), 'store.sqlite');
    const serving = await startServe(['--spec', 'math', '--processes', '2', '--store', storePath]);
    const pids = await pidsAnswering(serving.url, 2);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        postJson(`${serving.url}/get_reward`, batch(i), { connection: 'close' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(200));
    // No drain, no last merge: the primary dies at once, and its copies with it.
    await serving.stop('SIGKILL');
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 200 && [...pids].some(alive); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    // The dead primary's merger heartbeat stays fresh for a minute, during which an open leaves
    // the shards to it (it might be alive); a minute later the next open merges them.
    const first = openSqliteStore(storePath);
    const [run] = await first.listRuns();
    expect(run?.status).toBe('running');
    await first.putState(`shard-merger:${run?.id}`, Date.now() - 61_000);
    await first.close();
    const store = openSqliteStore(storePath);
    try {
      for (const answer of answers) {
        const requestId = answer.headers.get('x-request-id') as string;
        const results = await store.listResults(run?.id as string, { requestId });
        expect(results.map((r) => r.reward)).toEqual([1, 0]);
      }
    } finally {
      await store.close();
    }
  });

  test('should keep per-source statistics of the rows, not of the saves, when a request is sent twice', async () => {
    const storePath = join(tempDir(), 'store.sqlite');
    const serving = await startServe(['--spec', 'math', '--processes', '2', '--store', storePath]);
    try {
      // The same request id twice: the same sample ids, saved again (a trainer's retry).
      for (let i = 0; i < 2; i++) {
        const answer = await postJson(`${serving.url}/get_reward`, batch(0), { 'x-request-id': 'retried' });
        expect(answer.status).toBe(200);
      }
      expect((await postJson(`${serving.url}/get_reward`, batch(1))).status).toBe(200);
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
    const store = openSqliteStore(storePath);
    try {
      const [run] = await store.listRuns();
      expect(run?.summary).toMatchObject({ rows: 6 });
      const kept = (await store.getState(sourceStatsKey(run?.id as string))) as StoredSourceStats;
      expect(kept.sources).toEqual([{ source: 'math', count: 4, mean: 0.5, invalid: 0 }]);
    } finally {
      await store.close();
    }
  });

  test('should replace a process that dies and keep answering on the same port', async () => {
    const serving = await startServe(['--spec', 'math', '--processes', '2', '--store', 'none']);
    try {
      const pids = await pidsAnswering(serving.url, 2);
      const [victim] = pids;
      process.kill(victim as number, 'SIGKILL');
      let replacement: number | undefined;
      // A few asks per round: while the replacement starts, only the survivor answers.
      for (let i = 0; i < 200 && replacement === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const answering = await pidsAnswering(serving.url, 2, 8).catch(() => new Set<number>());
        replacement = [...answering].find((pid) => !pids.has(pid));
      }
      expect(replacement).toBeDefined();
      const answer = await postJson(`${serving.url}/get_reward`, batch(0));
      expect(answer.status).toBe(200);
      expect(serving.stderr()).toMatch(/a serve process exited \(SIGKILL\); starting another/);
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
  });

  test('should refuse a bad --processes and an in-memory store it cannot share', async () => {
    const bad = await runCli(['serve', '--processes', '0']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--processes expects a positive integer or "auto", got "0"');
    const memory = await runCli(['serve', '--port', '0', '--processes', '2', '--store', ':memory:']);
    expect(memory.code).not.toBe(0);
    expect(memory.stderr).toContain('not ":memory:"');
  });
});
