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
      { cwd: join(repoRoot, 'python'), env: { ...process.env, ...env }, timeout: 80_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

// The trainer shims (python/rewardkit_client.py), called the way verl, TRL and OpenRLHF call them
// (python/upstream_callers.py), against live servers: math with a token; math and the routed
// default spec without one, as OpenRLHF sends no token.
describe('Python shims for verl, TRL and OpenRLHF', () => {
  let servers: ServeProcess[] = [];
  beforeAll(async () => {
    servers = await Promise.all([
      startServe(['--spec', 'math', '--token', TOKEN]),
      startServe(['--spec', 'math']),
      startServe(['--spec', 'default']),
    ]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  test('should pass their unittest suite against the running servers, none skipped', async () => {
    const [math, open, routed] = servers.map((s) => s.url);
    const run = await python({
      REWARDKIT_URL: math,
      REWARDKIT_TOKEN: TOKEN,
      REWARDKIT_OPEN_URL: open,
      REWARDKIT_ROUTED_URL: routed,
    });
    expect(run.output).toMatch(/Ran 32 tests/);
    expect(run.output).not.toMatch(/skipped/);
    expect(run.code, run.output).toBe(0);
  }, 120_000);
});
