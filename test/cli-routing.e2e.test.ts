import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

const stdio = { inputs: ['2\n', '5\n'], outputs: ['4\n', '10\n'] };
const calls = { fn_name: 'add', inputs: ['1\n2', '3\n4'], outputs: ['3', '7'] };
const verlRow = (id: number, dataSource: string, response: string, groundTruth: unknown) => ({
  data_source: dataSource,
  prompt: [{ role: 'user', content: 'Solve it.' }],
  ability: 'x',
  reward_model: { style: 'rule', ground_truth: groundTruth },
  extra_info: { index: id, split: 'train' },
  response,
});
// verl rows as its preprocessors write them, under the names verl's default_compute_score
// dispatches on, and rows of two data_sources no route takes.
const rows = [
  verlRow(0, 'lighteval/MATH', 'So the answer is $\\boxed{3}$.', '3'),
  verlRow(1, 'openai/gsm8k', '6 * 7 = 42\n#### 42', '42'),
  verlRow(2, 'codecontests', '```python\nprint(int(input()) * 2)\n```', JSON.stringify(stdio)),
  verlRow(3, 'likaixin/TACO-verified', 'def add(a, b):\n    return a + b\n', JSON.stringify(calls)),
  verlRow(4, 'searchR1_nq', 'I searched. <answer>Paris</answer>', { target: ['Paris'] }),
  verlRow(5, 'Rowan/hellaswag', 'B', 'B'),
  verlRow(6, 'Rowan/hellaswag', 'C', 'B'),
  verlRow(7, 'my_private_set', 'yes', 'yes'),
];
const rewardsOf = (path: string) => readJsonl(path).map((r) => [r.id, r.reward, r.status]);
const warningLines = (stderr: string) => stderr.split('\n').filter((l) => l.includes('matches no route'));

describe('score --spec default --format verl', () => {
  test("should route verl's names, read code tests from ground_truth and count the unrouted rows", async () => {
    const dir = tempDir();
    const input = join(dir, 'verl.jsonl');
    writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const output = join(dir, 'out.jsonl');
    const summaryFile = join(dir, 'summary.json');
    const store = join(dir, 'runs.sqlite');
    const run = await runCli([
      'score',
      '--format',
      'verl',
      '-i',
      input,
      '-o',
      output,
      '--summary',
      summaryFile,
      '--store',
      store,
      '--no-progress',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(rewardsOf(output)).toEqual([
      ['0', 1, 'ok'],
      ['1', 1, 'ok'],
      ['2', 1, 'ok'],
      ['3', 1, 'ok'],
      ['4', 1, 'ok'],
      ['5', 1, 'ok'],
      ['6', 0, 'ok'],
      ['7', 1, 'ok'],
    ]);
    // One line per unrouted data_source, however many of its rows came.
    expect(warningLines(run.stderr)).toEqual([
      'rewardkit: warning: data_source "Rowan/hellaswag" matches no route of spec "default": its rows are scored by the default route (reference); add a route for it if they need another check',
      'rewardkit: warning: data_source "my_private_set" matches no route of spec "default": its rows are scored by the default route (reference); add a route for it if they need another check',
    ]);
    expect(run.stdout).toContain('routed to default  3 rows matched no route of the spec:');
    expect(run.stdout).toMatch(/ {4}Rowan\/hellaswag {2}2\n {4}my_private_set {2}1\n/);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    const counts = [
      { data_source: 'Rowan/hellaswag', rows: 2 },
      { data_source: 'my_private_set', rows: 1 },
    ];
    expect(summary.routed_default).toEqual(counts);
    const runId = /rewardkit runs show ([^\s)]+)/.exec(run.stdout)?.[1] as string;
    const shown = await runCli(['runs', 'show', runId, '--store', store]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).summary.routed_default).toEqual(counts);
    const results = readJsonl(output);
    expect(results[5]).toMatchObject({ routed_default: true });
    expect(results[0]).not.toHaveProperty('routed_default');
  }, 120_000);

  test('should warn once per source and count on worker threads too', async () => {
    const dir = tempDir();
    const spec = join(dir, 'spec.yaml');
    writeFileSync(
      spec,
      'name: light\nroutes:\n  - data_source: gsm8k\n    spec: math\ndefault: {sources: [{kind: regex, params: {pattern: "yes"}}]}\n',
    );
    const input = join(dir, 'rows.jsonl');
    const lines = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({
        id: i,
        response: '#### 1 yes',
        reference: '1',
        data_source: ['openai/GSM8K', 'nq', 'tqa'][i % 3],
      }),
    );
    writeFileSync(input, `${lines.join('\n')}\n`);
    const summaryFile = join(dir, 'summary.json');
    const run = await runCli([
      'score',
      '--spec',
      spec,
      '-i',
      input,
      '-o',
      join(dir, 'out.jsonl'),
      '--workers',
      '2',
      '--summary',
      summaryFile,
      '--no-progress',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(
      warningLines(run.stderr)
        .map((l) => /data_source "(\w+)"/.exec(l)?.[1])
        .sort(),
    ).toEqual(['nq', 'tqa']);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    expect(summary.routed_default).toEqual([
      { data_source: 'nq', rows: 13 },
      { data_source: 'tqa', rows: 13 },
    ]);
  }, 120_000);
});

describe('serve --spec default', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe(['--spec', 'default']);
  });
  afterAll(async () => {
    await server.stop();
  });

  test("should score verl's rows through /v1/rewards and count the unrouted ones in /metrics", async () => {
    const samples = rows.map((row) => ({
      id: String(row.extra_info.index),
      data_source: row.data_source,
      response: row.response,
      // What the verl shim sends: ground_truth as text, search-R1's targets as a list.
      reference:
        typeof row.reward_model.ground_truth === 'string'
          ? row.reward_model.ground_truth
          : (row.reward_model.ground_truth as { target: string[] }).target,
    }));
    const res = await postJson(`${server.url}/v1/rewards`, { samples });
    expect(res.status, res.text).toBe(200);
    const body = res.json() as { results: { reward: number; routed_default?: boolean }[] };
    expect(body.results.map((r) => r.reward)).toEqual([1, 1, 1, 1, 1, 1, 0, 1]);
    expect(body.results.map((r) => r.routed_default ?? false)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    await postJson(`${server.url}/v1/rewards`, { samples: [{ ...samples[5], id: 'again' }] });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('rewardkit_routed_default{data_source="Rowan/hellaswag"} 3');
    expect(metrics).toContain('rewardkit_routed_default{data_source="my_private_set"} 1');
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as Record<string, unknown>;
    expect(health.needs_groups).toBe(false);
    expect(warningLines(server.stderr())).toEqual([
      'rewardkit serve: warning: data_source "Rowan/hellaswag" matches no route of spec "default": its rows are scored by the default route (reference); add a route for it if they need another check',
      'rewardkit serve: warning: data_source "my_private_set" matches no route of spec "default": its rows are scored by the default route (reference); add a route for it if they need another check',
    ]);
  }, 60_000);
});
