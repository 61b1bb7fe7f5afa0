import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot, tempDir } from './cli-harness.js';
import { type ScriptedOpenAIServer, startScriptedOpenAIServer } from './scripted-openai-server.js';
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

const scores = (one: number, two: number) =>
  JSON.stringify({ principles: ['vivid'], critique: 'fine', score_1: one, score_2: two });

// The trainer shims (python/rewardkit_client.py), called the way verl, TRL and OpenRLHF call them
// (python/upstream_callers.py), against live servers: math with a token; math and the routed
// default spec without one, as OpenRLHF sends no token; and a GenRM judging within the group,
// whose judge prefers the response that says GOOD in either position.
describe('Python shims for verl, TRL and OpenRLHF', () => {
  let servers: ServeProcess[] = [];
  let judge: ScriptedOpenAIServer;
  beforeAll(async () => {
    judge = await startScriptedOpenAIServer();
    judge.script(
      { match: { contains: /<response-1-\w+>\nGOOD/ }, reply: { content: scores(9, 4) } },
      { match: { contains: /<response-1-\w+>\nBAD/ }, reply: { content: scores(2, 8) } },
    );
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n  judge:\n    model: scripted-judge\n    base_url: ${judge.url}\n    api_key_env: JUDGE_KEY\n    max_retries: 0\n`,
    );
    writeFileSync(
      join(dir, 'group.yaml'),
      'name: group\nsources:\n  - kind: genrm\n    params: {model: judge, against: group, reasks: 0}\n',
    );
    servers = await Promise.all([
      startServe(['--spec', 'math', '--token', TOKEN]),
      startServe(['--spec', 'math']),
      startServe(['--spec', 'default']),
      startServe(['--spec', join(dir, 'group.yaml'), '--models', join(dir, 'models.yaml')], {
        JUDGE_KEY: 'k',
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await judge?.close();
  });

  test('should pass their unittest suite against the running servers, none skipped', async () => {
    const [math, open, routed, group] = servers.map((s) => s.url);
    const run = await python({
      REWARDKIT_URL: math,
      REWARDKIT_TOKEN: TOKEN,
      REWARDKIT_OPEN_URL: open,
      REWARDKIT_ROUTED_URL: routed,
      REWARDKIT_GROUP_URL: group,
    });
    expect(run.output).toMatch(/Ran 34 tests/);
    expect(run.output).not.toMatch(/skipped/);
    expect(run.code, run.output).toBe(0);
  }, 120_000);
});
