import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { repoRoot, runCli, tempDir } from './cli-harness.js';
import { type ScriptedOpenAIServer, startScriptedOpenAIServer } from './scripted-openai-server.js';

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer();
  server.script({
    reply: { content: JSON.stringify({ principles: ['p'], critique: 'c', score_1: 7, score_2: 4 }) },
  });
});
afterEach(async () => {
  await server.close();
});

function setup() {
  const dir = tempDir();
  writeFileSync(join(dir, 'models.yaml'), `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n`);
  return { dir, env: { REWARDKIT_STORE: join(dir, 'store.sqlite') } };
}

describe('the response cache from the CLI', () => {
  test('should answer a rerun of rewardkit bench from the store, and call again with --no-cache', async () => {
    const { dir, env } = setup();
    const args = [
      'bench',
      '--dataset',
      'pairwise',
      '--input',
      join(repoRoot, 'test/fixtures/bench/pairwise.jsonl'),
      '--models',
      join(dir, 'models.yaml'),
      '--model',
      'judge',
      '--output',
      join(dir, 'out.jsonl'),
      '--no-resume',
    ];
    const first = await runCli(args, { env });
    expect(first.stderr).not.toMatch(/error/i);
    const calls = server.requests.length;
    expect(calls).toBeGreaterThan(0);
    await runCli(args, { env });
    expect(server.requests).toHaveLength(calls);
    await runCli([...args, '--no-cache'], { env });
    expect(server.requests).toHaveLength(2 * calls);
  });

  test('should ask again once a cached answer is older than --cache-ttl', async () => {
    const { dir, env } = setup();
    const pair = `${JSON.stringify({ id: 1, prompt: 'q', first: 'A', second: 'B' })}\n`;
    const args = [
      'judge',
      'pairwise',
      '--models',
      join(dir, 'models.yaml'),
      '--model',
      'judge',
      '--input',
      '-',
    ];
    await runCli([...args, '--cache-ttl', '7d'], { stdin: pair, env });
    expect(server.requests).toHaveLength(2);
    await runCli([...args, '--cache-ttl', '7d'], { stdin: pair, env });
    expect(server.requests).toHaveLength(2);
    // A 1 ms lifetime has passed by the next run: the answers are stale and asked for again.
    await runCli([...args, '--cache-ttl', '1'], { stdin: pair, env });
    expect(server.requests).toHaveLength(4);
  });

  test('should refuse a --cache-ttl that is not a duration', async () => {
    const run = await runCli(
      ['score', '--spec', 'math', '--input', '-', '--output', '-', '--cache-ttl', 'soon'],
      {
        stdin: '',
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /--cache-ttl takes a positive duration such as 90s, 30m, 12h or 7d, got "soon"/,
    );
  });
});

describe('a judge command with a missing input', () => {
  test('should fail before creating a store', async () => {
    const { dir, env } = setup();
    const run = await runCli(
      [
        'judge',
        'pairwise',
        '--models',
        join(dir, 'models.yaml'),
        '--model',
        'judge',
        '--input',
        join(dir, 'nope.jsonl'),
      ],
      { env },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--input .*nope\.jsonl: not found/);
    expect(existsSync(env.REWARDKIT_STORE)).toBe(false);
  });
});
