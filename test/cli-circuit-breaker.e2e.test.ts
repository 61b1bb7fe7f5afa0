import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { refusingEndpoint, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const SPEC = 'name: judged\nsources:\n  - kind: genrm\n    params:\n      model: judge\n      reasks: 0\n';

/** Writes dir/models.yaml: one model, "judge", at `url`, with no retries; returns its path. */
function judgeModels(dir: string, url: string): string {
  const path = join(dir, 'models.yaml');
  writeFileSync(path, `models:\n  judge:\n    model: judge\n    base_url: ${url}\n    max_retries: 0\n`);
  return path;
}

function workspace(rows: number) {
  const dir = tempDir();
  writeFileSync(join(dir, 'spec.yaml'), SPEC);
  writeFileSync(
    join(dir, 'samples.jsonl'),
    `${Array.from({ length: rows }, (_, i) => JSON.stringify({ id: `s${i}`, prompt: `Q${i}?`, response: `A${i}.`, reference: `R${i}.` })).join('\n')}\n`,
  );
  const models = (url: string) => judgeModels(dir, url);
  const args = (models: string) => [
    'score',
    '--spec',
    join(dir, 'spec.yaml'),
    '--models',
    models,
    '-i',
    join(dir, 'samples.jsonl'),
    '-o',
    join(dir, 'out.jsonl'),
    '--store',
    join(dir, 'store.sqlite'),
    '--concurrency',
    '1',
    '--no-progress',
  ];
  return { dir, models, args, out: join(dir, 'out.jsonl'), store: join(dir, 'store.sqlite') };
}

const runsOf = async (store: string) =>
  (await runCli(['runs', 'list', '--store', store])).stdout.trim().split('\n').filter(Boolean);

// Each test runs the CLI several times; on a loaded machine a run takes seconds.
describe('the circuit breaker of a scoring run', { timeout: 120_000 }, () => {
  test('should stop a run against an endpoint that refuses connections, resumably, and a rerun finishes it', async () => {
    const w = workspace(12);
    const refused = await refusingEndpoint();
    const down = await runCli([...w.args(w.models(refused)), '--max-consecutive-failures', '3']);
    expect(down.stderr).not.toMatch(/internal error|\n {4}at /);
    const stopped = down.stderr.split('\n').filter((line) => line.includes('stopped:'));
    expect(stopped).toEqual([
      expect.stringMatching(
        new RegExp(
          `^rewardkit: stopped: the backend is down: 3 calls in a row failed, the last to model "judge" at ${refused.replaceAll('.', '\\.')}: connection failed: .*--max-consecutive-failures 0 never stops\\)$`,
        ),
      ),
    ]);
    expect(stopped[0]).not.toContain('..');
    expect(down.code).toBe(4);
    // One row at a time, two calls a row (genrm judges both orders): s0's two calls failed and it is
    // recorded failed with the reason; s1's first call opened the breaker, so s1 was not judged and
    // is not written; nothing after it was read.
    const written = readJsonl(w.out);
    expect(written.map((r) => [r.id, r.status])).toEqual([['s0', 'failed']]);
    expect(JSON.stringify(written[0]?.evidence)).toMatch(/connection failed/);
    // s1, and s2 if it was read before the stop: failed fast on the open breaker, not written.
    expect(down.stderr).toMatch(/[12] row\(s\) failed after the backend went down and are not written/);
    expect(await runsOf(w.store)).toEqual([expect.stringMatching(/^run-\S+ +interrupted /)]);

    server.script({
      reply: { content: JSON.stringify({ principles: ['p'], critique: 'c', score_1: 7, score_2: 4 }) },
    });
    const again = await runCli(w.args(w.models(server.url)));
    expect(again.stderr).not.toMatch(/stopped:/);
    // s0 stays as it was written (resume skips it); the rows scored now all passed.
    expect(again.code).toBe(0);
    const all = readJsonl(w.out);
    expect(all.map((r) => r.id)).toEqual(Array.from({ length: 12 }, (_, i) => `s${i}`));
    expect(all.slice(1).every((r) => r.status === 'ok')).toBe(true);
    const runs = await runsOf(w.store);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^run-\S+ +finished /);
  });

  test('should stop on HTTP 500s after retries, and never with --max-consecutive-failures 0', async () => {
    const w = workspace(6);
    // A server with no script answers every request 500.
    const down = await runCli([...w.args(w.models(server.url)), '--max-consecutive-failures', '2']);
    expect(down.code).toBe(4);
    expect(down.stderr).toMatch(/stopped: the backend is down: 2 calls in a row failed, .*: HTTP 500: /);
    const calls = server.requests.length;
    expect(calls).toBe(2);
    const all = await runCli([
      ...w.args(w.models(server.url)),
      '--no-resume',
      '--max-consecutive-failures',
      '0',
    ]);
    expect(all.code).toBe(3);
    expect(all.stderr).not.toMatch(/stopped:/);
    expect(readJsonl(w.out).filter((r) => r.status === 'failed')).toHaveLength(6);
    expect(server.requests.length - calls).toBe(12);
  });

  test('should not count an answered 4xx or an unreadable answer as the backend being down', async () => {
    const w = workspace(6);
    server.script(
      { reply: { status: 400, error: 'bad request' }, times: 3 },
      { reply: { content: 'no JSON here' } },
    );
    const run = await runCli([...w.args(w.models(server.url)), '--max-consecutive-failures', '2']);
    expect(run.stderr).not.toMatch(/stopped:/);
    expect(run.code).toBe(3);
    expect(readJsonl(w.out)).toHaveLength(6);
  });
});

describe('a spec whose judge sources name an unconfigured model', { timeout: 60_000 }, () => {
  test('should be refused before the first row, naming the source, the model and how to configure one', async () => {
    const w = workspace(3);
    const none = await runCli(
      w.args('').filter((arg, i, all) => arg !== '--models' && all[i - 1] !== '--models'),
    );
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      'rewardkit: source "genrm" needs model "judge"; no model is configured: pass --models <file>, set REWARDKIT_MODELS, or define REWARDKIT_MODEL_<NAME>_BASE_URL and REWARDKIT_MODEL_<NAME>_MODEL\n',
    );
    expect(existsSync(w.out)).toBe(false);
    expect(existsSync(w.store)).toBe(false);
    writeFileSync(
      join(w.dir, 'other.yaml'),
      `models:\n  other:\n    model: o\n    base_url: ${server.url}\n`,
    );
    const other = await runCli(w.args(join(w.dir, 'other.yaml')));
    expect(other.code).toBe(1);
    expect(other.stderr).toBe(
      `rewardkit: source "genrm" needs model "judge"; configured in ${join(w.dir, 'other.yaml')}: other\n`,
    );
    const judge = await runCli([
      'judge',
      'genrm',
      '--model',
      'judge',
      '-i',
      join(w.dir, 'samples.jsonl'),
      '-o',
      join(w.dir, 'judged.jsonl'),
    ]);
    expect(judge.code).toBe(1);
    expect(judge.stderr).toMatch(/^rewardkit: source "genrm" needs model "judge"; no model is configured/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('the circuit breaker of a row-by-row command', { timeout: 120_000 }, () => {
  test('judge pairwise: stops, writes no row it did not judge, and a rerun judges the rest', async () => {
    const dir = tempDir();
    const input = join(dir, 'pairs.jsonl');
    writeFileSync(
      input,
      `${Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: `p${i}`, prompt: `PAIR-${i}`, first: 'ONE', second: 'TWO' })).join('\n')}\n`,
    );
    const out = join(dir, 'out.jsonl');
    const args = (url: string) => [
      'judge',
      'pairwise',
      '--models',
      judgeModels(dir, url),
      '-m',
      'judge',
      '-i',
      input,
      '-o',
      out,
    ];
    const down = await runCli([...args(await refusingEndpoint()), '--max-consecutive-failures', '4']);
    expect(down.code).toBe(4);
    expect(down.stderr).toMatch(/not written \(failed after the backend went down: a rerun handles them\)/);
    const before = readJsonl(out);
    // Whatever was written before the breaker opened is a failed row with the transport error.
    for (const line of before) expect(String(line.error)).toMatch(/connection failed/);
    expect(before.length).toBeLessThan(10);

    server.script({
      reply: { content: JSON.stringify({ principles: ['p'], critique: 'c', score_1: 8, score_2: 3 }) },
    });
    const again = await runCli(args(server.url));
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`10 rows, ${10 - before.length} ok, 0 failed, ${before.length} skipped`);
    expect(readJsonl(out).map((line) => line.id)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`));
  });
});
