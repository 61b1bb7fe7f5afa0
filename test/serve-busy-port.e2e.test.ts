import { existsSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { repoRoot, runCli, tempDir } from './cli-harness.js';

/** A port something else already listens on. */
let holder: Server;
let port: number;
beforeEach(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as AddressInfo).port;
});
afterEach(async () => {
  await new Promise<void>((resolve) => holder.close(() => resolve()));
});

/** Runs the CLI, killed after 30 s so that a hang fails the test instead of stalling it. */
const runBounded = (args: string[]) =>
  runCli(args, {
    onSpawn: (kill) => {
      const timer = setTimeout(() => kill('SIGKILL'), 30_000);
      timer.unref();
    },
  });

// Each test runs the CLI twice; on a loaded machine a run takes seconds.
describe('rewardkit serve on a port already in use', { timeout: 90_000 }, () => {
  test.each([
    ['one process', []],
    ['--processes 2', ['--processes', '2']],
  ])(
    '%s exits at once with exit 1 and one line naming the port, and creates no run in the SQLite store',
    async (_name, extra) => {
      const store = join(tempDir(), 'store.sqlite');
      const run = await runBounded(['serve', '--port', String(port), '--store', store, ...extra]);
      expect(run.signal).toBeNull();
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `rewardkit: port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another port (--port)\n`,
      );
      const runs = await runCli(['runs', 'list', '--store', store]);
      expect(runs.code).toBe(0);
      expect(runs.stdout).not.toMatch(/serve:/);
    },
  );
});

describe('rewardkit serve with a spec whose judge source names an unconfigured model', {
  timeout: 90_000,
}, () => {
  test.each([
    ['one process', []],
    ['--processes 2', ['--processes', '2']],
  ])('%s refuses to start, naming the source and the model, and creates no run', async (_name, extra) => {
    const dir = tempDir();
    const spec = join(dir, 'spec.yaml');
    writeFileSync(spec, 'sources:\n  - kind: genrm\n    params:\n      model: judge\n');
    const store = join(dir, 'store.sqlite');
    const run = await runBounded(['serve', '--spec', spec, '--port', '0', '--store', store, ...extra]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^rewardkit: source "genrm" needs model "judge"; no model is configured: pass --models <file>/,
    );
    expect(existsSync(store)).toBe(false);
  });
});

describe('the other servers on a port already in use', { timeout: 90_000 }, () => {
  test('index serve and view exit 1 at once with the same one line', async () => {
    const dir = tempDir();
    const index = join(dir, 'idx');
    const corpus = join(repoRoot, 'examples/corpus/corpus.jsonl');
    expect((await runCli(['index', 'build', '--corpus', corpus, '--out', index])).code).toBe(0);
    const store = join(dir, 'store.sqlite');
    const samples = join(repoRoot, 'examples/mixed.jsonl');
    const scored = await runCli(['score', '-i', samples, '-o', join(dir, 'out.jsonl'), '--store', store]);
    expect(scored.code).toBe(0);
    const line = `rewardkit: port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another port (--port)\n`;
    for (const args of [
      ['index', 'serve', '--index', index, '--port', String(port)],
      ['view', '--store', store, '--port', String(port)],
    ]) {
      const run = await runBounded(args);
      expect(run.signal).toBeNull();
      expect(run.stderr).toBe(line);
      expect(run.code).toBe(1);
    }
  });
});
