import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from './cli-harness.js';
import { postJson, startServe } from './serve-harness.js';

const sample = (id: string) => ({ samples: [{ id, response: '#### 4', reference: '4' }] });

describe('a server killed with SIGKILL, on a SQLite store', () => {
  test('should leave a run that the next command closes as interrupted with its stored counts once the lease lapses', async () => {
    const store = join(tempDir(), 'store.sqlite');
    const env = { REWARDKIT_RUN_LEASE: '1s' };
    const serving = await startServe(['--spec', 'math', '--store', store], env);
    for (let i = 0; i < 5; i++) {
      expect((await postJson(`${serving.url}/v1/rewards`, sample(`s${i}`))).status).toBe(200);
    }
    const runId = /store run (\S+?);/.exec(serving.stderr())?.[1] as string;
    await serving.stop('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const listed = await runCli(['runs', 'list', '--store', store], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`^${runId}\\s+interrupted\\s+serve:math .*rows=5 failed=0 mean=1`, 'm'),
    );
    const shown = JSON.parse((await runCli(['runs', 'show', runId, '--store', store])).stdout);
    expect(shown.summary.interrupted).toMatch(/stopped renewing the run's lease for more than 1 s/);
  }, 60_000);
});
