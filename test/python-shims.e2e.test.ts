import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './cli-harness.js';
import { type ServeProcess, startServe } from './serve-harness.js';

const TOKEN = 'shim-test-token';

function python(env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'python3',
      ['-m', 'unittest', '-v', 'test_rewardkit_client'],
      { cwd: join(repoRoot, 'python'), env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

// The trainer shims (python/rewardkit_client.py) against a live `rewardkit serve --spec math`.
describe('Python shims for verl and TRL', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe(['--spec', 'math', '--token', TOKEN]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('should pass their unittest suite against the running server, none skipped', async () => {
    const run = await python({ REWARDKIT_URL: server.url, REWARDKIT_TOKEN: TOKEN });
    expect(run.output).toMatch(/Ran 10 tests/);
    expect(run.output).not.toMatch(/skipped/);
    expect(run.code, run.output).toBe(0);
  }, 90_000);
});
