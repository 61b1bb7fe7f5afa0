import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openPostgresStore } from '../src/store/index.js';
import { startTestPostgres } from '../src/store/test-utils/start-test-postgres.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { postJson, startServe } from './serve-harness.js';

const server = await startTestPostgres();
afterAll(() => server.stop());

const mathRow = (i: number, correct = true) =>
  JSON.stringify({
    id: `m${i}`,
    data_source: 'gsm8k',
    response: `#### ${correct ? i : i + 1}`,
    reference: String(i),
  });

describe.skipIf(!server.available)('rewardkit with a PostgreSQL store', () => {
  test('should store a scored run in PostgreSQL and read it back with runs list and runs show', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    writeFileSync(input, `${mathRow(1)}\n${mathRow(2, false)}\nnot json\n`);
    const scored = await runCli([
      'score',
      '--spec',
      'math',
      '--input',
      input,
      '--output',
      out,
      '--store',
      url,
    ]);
    expect(scored.stderr).not.toMatch(/internal error/);
    expect(scored.code).toBe(3);
    expect(readJsonl(out).map((r) => r.id)).toEqual(['m1', 'm2', 'line:3']);
    const runId = /run\s+(\S+)/.exec(scored.stdout)?.[1] as string;

    const listed = await runCli(['runs', 'list', '--store', url]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${runId}\\s+finished\\s+math .*rows=3 failed=1 mean=0\\.5`));

    // REWARDKIT_STORE names the same store for commands without --store.
    const shown = await runCli(['runs', 'show', runId], { env: { REWARDKIT_STORE: url } });
    expect(shown.code).toBe(0);
    const detail = JSON.parse(shown.stdout);
    expect(detail).toMatchObject({
      id: runId,
      status: 'finished',
      spec_name: 'math',
      summary: { rows: 3, failed: 1 },
    });
    expect(detail.failures).toEqual([
      { sample_id: 'line:3', reasons: [expect.stringMatching(/:3: invalid JSON/)] },
    ]);
    expect(detail.sources).toEqual([expect.objectContaining({ source: 'math', count: 2, mean: 0.5 })]);

    // A rerun of the same command resumes the same run in the shared store.
    writeFileSync(input, `${mathRow(1)}\n${mathRow(2, false)}\nnot json\n${mathRow(4)}\n`);
    const resumed = await runCli([
      'score',
      '--spec',
      'math',
      '--input',
      input,
      '--output',
      out,
      '--store',
      url,
    ]);
    expect(resumed.stdout).toContain(runId);
    const again = JSON.parse((await runCli(['runs', 'show', runId, '--store', url])).stdout);
    expect(again.sources).toEqual([expect.objectContaining({ source: 'math', count: 3 })]);
  }, 120_000);
});

describe.skipIf(!server.available)('serve --processes with a PostgreSQL store', () => {
  test('should have every process write its own results into one run, finished with the merged summary', async () => {
    if (!server.available) return;
    const url = await server.createDatabase();
    const serving = await startServe(['--spec', 'math', '--processes', '2', '--store', url]);
    const requestIds: string[] = [];
    const pids = new Set<number>();
    try {
      for (let i = 0; i < 200 && pids.size < 2; i++) {
        const health = await fetch(`${serving.url}/healthz`, { headers: { connection: 'close' } });
        pids.add(((await health.json()) as { pid: number }).pid);
      }
      // Fresh connections, which the primary hands to the processes in turn.
      for (let i = 0; i < 12; i++) {
        const res = await postJson(
          `${serving.url}/get_reward`,
          {
            query: [`Q${i}: 2+2? #### 4`, `Q${i}: 2+3? #### 6`],
            prompts: [`Q${i}: 2+2? `, `Q${i}: 2+3? `],
            labels: ['4', '5'],
          },
          { connection: 'close' },
        );
        expect(res.status).toBe(200);
        expect((res.json() as { rewards: number[] }).rewards).toEqual([1, 0]);
        requestIds.push(res.headers.get('x-request-id') as string);
      }
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
    expect(pids.size).toBe(2);
    const store = await openPostgresStore(url);
    try {
      const [run] = await store.listRuns();
      expect(run?.status).toBe('finished');
      expect(run?.summary).toMatchObject({ rows: requestIds.length * 2, failed: 0, mean_reward: 0.5 });
      expect((await store.listResults(run?.id as string, { limit: 1000 })).length).toBe(
        requestIds.length * 2,
      );
      for (const requestId of requestIds) {
        const rows = await store.listResults(run?.id as string, { requestId });
        expect(rows.map((r) => [r.id, r.reward])).toEqual([
          [`${requestId}-0`, 1],
          [`${requestId}-1`, 0],
        ]);
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('rewardkit --store help', () => {
  test.each(['score', 'runs list', 'runs show', 'judge pairwise'])(
    'should say in %s --help that --store takes a postgres:// URL',
    async (command) => {
      const help = await runCli([...command.split(' '), '--help']);
      expect(help.code).toBe(0);
      // The help wraps at the terminal's width, so the words may break across lines.
      expect(help.stdout).toMatch(/--store <path\|url>\s+.*a\s+postgres:\/\/ URL/s);
    },
  );
});

describe('rewardkit with an unreachable PostgreSQL store', () => {
  test('should fail naming the store with its password masked', async () => {
    const run = await runCli(['runs', 'list', '--store', 'postgresql://rk:hunter2@127.0.0.1:1/rewards']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/Store postgresql:\/\/rk:\*\*\*@127\.0\.0\.1:1\/rewards: opening failed/);
    expect(run.stderr).not.toContain('hunter2');
  });
});
