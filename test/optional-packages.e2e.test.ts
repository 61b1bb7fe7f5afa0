import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { bubblewrapWorks } from '../src/verify/code/python-runner.js';
import { type CliRun, readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

// What a user of the lean install sees: each optional package hidden as if npm had not installed
// it (test/hide-packages), the CLI run from the build as they would run it.
const register = join(repoRoot, 'test/hide-packages/register.mjs');
const hiding = (...packages: string[]): NodeJS.ProcessEnv => ({
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${register}`.trim(),
  RK_HIDE_PACKAGES: packages.join(','),
});

const ALL_OPTIONAL = [
  'better-sqlite3',
  'pg',
  'typescript',
  'node-llama-cpp',
  '@tensorflow/tfjs',
  '@tensorflow/tfjs-backend-wasm',
  'vega',
  'vega-lite',
];

const LAB_INSTALL = 'npm install @tensorflow/tfjs@4 @tensorflow/tfjs-backend-wasm@4 vega@6 vega-lite@6';
const mixed = join(repoRoot, 'examples/mixed.jsonl');
const mixedRows = readJsonl(mixed).length;

/** The run failed with exactly one `rewardkit: …` line, the part's message: no stack, no resolver internals. */
function expectOneLine(run: CliRun, ...fragments: string[]): void {
  expect(run.code).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^rewardkit: /);
  for (const fragment of fragments) expect(lines[0]).toContain(fragment);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toContain('node:internal');
}

let serving: ServeProcess | undefined;
afterEach(async () => {
  await serving?.stop('SIGKILL');
  serving = undefined;
});

describe('without better-sqlite3 (its native build failed)', () => {
  const env = hiding('better-sqlite3');

  test('score --store none scores every row', async () => {
    const out = join(tempDir(), 'out.jsonl');
    const run = await runCli(['score', '--input', mixed, '--output', out, '--store', 'none', '--no-resume'], {
      env,
    });
    expect(run.stderr).not.toContain('better-sqlite3');
    expect(run.code).toBe(0);
    const rows = readJsonl(out);
    expect(rows).toHaveLength(mixedRows);
    expect(rows.every((r) => typeof r.reward === 'number')).toBe(true);
  });

  test('score with the default SQLite store says how to get it, before creating anything', async () => {
    const dir = tempDir();
    const run = await runCli(['score', '--input', mixed, '--output', join(dir, 'out.jsonl'), '--no-resume'], {
      cwd: dir,
      // Spawn leaves out a variable set to undefined: the store is the default file in `dir`.
      env: { ...env, REWARDKIT_STORE: undefined },
    });
    expectOneLine(run, 'the SQLite store needs the package better-sqlite3', 'npm rebuild better-sqlite3');
    expect(run.stderr).toContain('--store none');
    expect(existsSync(join(dir, '.rewardkit'))).toBe(false);
  });

  test('verify math works', async () => {
    const run = await runCli(['verify', 'math', '--input', '-'], {
      env,
      stdin: `${JSON.stringify({ id: 'a', reference: '72', response: '#### 72' })}\n`,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 'a', correct: true });
  });
});

describe('without the lab packages', () => {
  // The smallest gap run of test/cli-lab.e2e.test.ts: it would take seconds if the lab could load.
  const GAP = ['--width', '16', '--heads', '2', '--depth', '2', '--batch', '8', '--base-steps', '12'];

  test.each([['@tensorflow/tfjs'], ['@tensorflow/tfjs-backend-wasm'], ['vega-lite']])(
    'lab gap without %s prints the lab install line before any work',
    async (hidden) => {
      const out = join(tempDir(), 'gap');
      const run = await runCli(
        ['lab', 'gap', ...GAP, '--latent-steps', '8', '--warmup', '2', '--no-progress', '-o', out],
        { env: hiding(hidden) },
      );
      expectOneLine(run, `needs the package ${hidden}, which is not installed`, LAB_INSTALL);
      expect(existsSync(out)).toBe(false);
    },
  );
});

describe('without pg', () => {
  test('a postgres:// store names the install line, before connecting', async () => {
    const run = await runCli(
      [
        'score',
        '--input',
        mixed,
        '--output',
        join(tempDir(), 'out.jsonl'),
        '--no-resume',
        '--store',
        'postgres://127.0.0.1:1/x',
      ],
      { env: hiding('pg') },
    );
    expectOneLine(run, 'the PostgreSQL store', 'npm install pg@8');
    expect(run.stderr).not.toContain('ECONNREFUSED');
  });
});

describe('without typescript', () => {
  // /run_code runs programs only inside bubblewrap; without it every language is refused alike.
  test.skipIf(!bubblewrapWorks())(
    '/run_code answers a TypeScript program with the install line, and still runs JavaScript',
    async () => {
      serving = await startServe(['--spec', 'math'], hiding('typescript'));
      const ts = await postJson(`${serving.url}/run_code`, {
        code: 'const x: number = 6 * 7;\nconsole.log(x);',
        language: 'typescript',
      });
      expect(ts.status).toBe(200);
      expect(ts.json()).toMatchObject({ status: 'SandboxError', run_result: null });
      expect((ts.json() as { message: string }).message).toContain('npm install typescript@5');
      const js = await postJson(`${serving.url}/run_code`, {
        code: 'console.log(6 * 7)',
        language: 'nodejs',
      });
      expect(js.json()).toMatchObject({ status: 'Success', run_result: { stdout: '42\n' } });
      expect(serving.stderr()).not.toMatch(/^\s+at /m);
    },
  );
});

describe('without node-llama-cpp', () => {
  test('a GGUF judge stops before the first row with the install line, before the model file is needed', async () => {
    const dir = tempDir();
    // No GGUF file at model_path: the missing package is what must be said.
    writeFileSync(
      join(dir, 'models.yaml'),
      'models:\n  local:\n    backend: llama_cpp\n    model_path: absent.gguf\n    gpu: false\n',
    );
    const rows = [
      { id: 1, prompt: 'Name a prime.', chosen: '7', rejected: '8' },
      { id: 2, prompt: 'Name a colour.', chosen: 'red', rejected: 'sour' },
    ];
    const run = await runCli(
      ['judge', 'pairwise', '--models', join(dir, 'models.yaml'), '--model', 'local', '--input', '-'],
      { env: hiding('node-llama-cpp'), stdin: `${rows.map((r) => JSON.stringify(r)).join('\n')}\n` },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('the local GGUF backend');
    expect(lines[0]).toContain('npm install node-llama-cpp@3');
    expect(lines[0]).not.toContain('absent.gguf');
  });

  test('a spec whose judge is a GGUF model is refused before the store opens or any row is scored', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      'models:\n  local:\n    backend: llama_cpp\n    model_path: absent.gguf\n    gpu: false\n',
    );
    writeFileSync(join(dir, 'spec.yaml'), 'sources:\n  - kind: genrm\n    params:\n      model: local\n');
    writeFileSync(
      join(dir, 'rows.jsonl'),
      `${JSON.stringify({ id: 1, prompt: 'p', response: 'r', reference: 'x' })}\n`,
    );
    const run = await runCli(
      [
        'score',
        '--spec',
        join(dir, 'spec.yaml'),
        '--models',
        join(dir, 'models.yaml'),
        '--input',
        join(dir, 'rows.jsonl'),
        '--output',
        join(dir, 'out.jsonl'),
        '--store',
        join(dir, 'store.sqlite'),
      ],
      { env: hiding('node-llama-cpp') },
    );
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('npm install node-llama-cpp@3');
    expect(existsSync(join(dir, 'out.jsonl'))).toBe(false);
    expect(existsSync(join(dir, 'store.sqlite'))).toBe(false);
  });
});

describe('without any optional package', () => {
  const env = hiding(...ALL_OPTIONAL);

  test("the demo's score command, with --store none, scores every row", async () => {
    const out = join(tempDir(), 'demo.jsonl');
    const run = await runCli(['score', '--input', mixed, '--output', out, '--no-resume', '--store', 'none'], {
      env,
    });
    expect(run.code).toBe(0);
    expect(readJsonl(out)).toHaveLength(mixedRows);
  });

  test('serve answers /v1/rewards', async () => {
    serving = await startServe([], env);
    const res = await postJson(`${serving.url}/v1/rewards`, {
      samples: [
        { id: 'm', data_source: 'gsm8k', response: 'so #### 72', reference: '72' },
        { id: 'r', response: 'Paris', reference: 'paris' },
      ],
    });
    expect(res.status).toBe(200);
    const body = res.json() as { results: Array<{ id: string; reward: number }> };
    expect(body.results.map((r) => [r.id, r.reward])).toEqual([
      ['m', 1],
      ['r', 1],
    ]);
  });
});
