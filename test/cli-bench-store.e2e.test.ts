import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openPostgresStore, openSqliteStore, type Store } from '../src/store/index.js';
import { startTestPostgres } from '../src/store/test-utils/start-test-postgres.js';
import { createViewApp } from '../src/view/create-view-app.js';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();
const postgres = await startTestPostgres();
afterAll(() => postgres.stop());

const scores = (one: number, two: number) =>
  JSON.stringify({ principles: ['is correct'], critique: 'compared', score_1: one, score_2: two });
/** GenRM replies by what sits in position 1 of the request. */
const atPosition1 = (text: string, one: number, two: number) => ({
  match: { contains: new RegExp(`<response-1-\\w+>\\n${text}`) },
  reply: { content: scores(one, two) },
});
const pairwiseFixture = join(repoRoot, 'test/fixtures/bench/pairwise.jsonl');

function setup() {
  const dir = tempDir();
  const models = join(dir, 'models.yaml');
  writeFileSync(
    models,
    `models:\n  judge:\n    model: scripted-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return { dir, models };
}

const benchArgs = (models: string, output: string, store: string) => [
  'bench',
  ...['--dataset', 'pairwise', '--input', pairwiseFixture, '--models', models, '--model', 'judge'],
  ...['--output', output, '--reasks', '0', '--store', store],
];

async function withView<T>(
  open: () => Promise<Store>,
  read: (request: (path: string) => Promise<Response>) => Promise<T>,
) {
  const store = await open();
  try {
    const app = createViewApp({ store, assetsDir: '/nonexistent' });
    return await read((path) => Promise.resolve(app.request(`http://localhost/${path}`)));
  } finally {
    await store.close();
  }
}

interface Stores {
  readonly name: string;
  readonly skip: boolean;
  /** A fresh store: what `--store` takes, and how a test opens it. */
  fresh(dir: string): Promise<{ flag: string; open: () => Promise<Store> }>;
}

const STORES: readonly Stores[] = [
  {
    name: 'SQLite',
    skip: false,
    fresh: async (dir) => {
      const file = join(dir, 'store.sqlite');
      return { flag: file, open: async () => openSqliteStore(file) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgres.available,
    fresh: async () => {
      if (!postgres.available) throw new Error('no PostgreSQL');
      const url = await postgres.createDatabase();
      return { flag: url, open: () => openPostgresStore(url) };
    },
  },
];

describe.each(STORES)('rewardkit bench and judge pairwise on $name', ({ skip, fresh }) => {
  test.skipIf(skip)(
    'bench stores a run: each item a result with its evidence, the report as its summary, listed and served',
    async () => {
      const { dir, models } = setup();
      const store = await fresh(dir);
      server.script(atPosition1('PW-GOOD', 9, 2), atPosition1('PW-BAD', 2, 9));
      const output = join(dir, 'out.jsonl');
      const run = await runCli(benchArgs(models, output, store.flag));
      expect(run.code).toBe(3);
      const runId = /^ {2}run {5}(run-\S+)/m.exec(run.stdout)?.[1];
      expect(runId).toBeDefined();

      const listed = await runCli(['runs', 'list', '--store', store.flag]);
      expect(listed.stdout).toMatch(
        new RegExp(
          `^${runId} +finished +bench:pairwise .*kind=bench {2}Pairwise JSONL: score 1\\.0000 · 3 judged, 1 failed · position consistency 1\\.0000 · judge genrm \\(judge\\)$`,
          'm',
        ),
      );

      await withView(store.open, async (request) => {
        const runs = (await (await request('api/runs')).json()) as {
          runs: Array<{ id: string; kind: string; headline?: string; results: number; failed: number }>;
        };
        expect(runs.runs).toEqual([
          expect.objectContaining({ id: runId, kind: 'bench', results: 4, failed: 1 }),
        ]);
        const detail = (await (await request(`api/runs/${runId}`)).json()) as {
          summary: {
            kind: string;
            report: { score: number; table: { rows: unknown[] }; judge_metrics: unknown };
          };
        };
        expect(detail.summary.kind).toBe('bench');
        expect(detail.summary.report.score).toBe(1);
        expect(detail.summary.report.table.rows.length).toBeGreaterThan(0);
        expect(detail.summary.report.judge_metrics).toMatchObject({ position_consistency: 1 });

        const page = (await (await request(`api/runs/${runId}/samples?limit=10`)).json()) as {
          rows: Array<{ sample_id: string; status: string; reward: number | null }>;
        };
        expect(page.rows.map((r) => [r.sample_id, r.status, r.reward])).toEqual([
          ['p-1', 'ok', 1],
          ['p-2', 'ok', 1],
          ['p-3', 'ok', 1],
          ['p-4', 'failed', null],
        ]);
        const sample = (await (await request(`api/runs/${runId}/samples/p-1`)).json()) as {
          result: {
            evidence: Array<{
              kind: string;
              source: string;
              verdict: string;
              detail: { judge: string; outcome: string };
            }>;
          };
          judge_calls: unknown[][];
        };
        expect(sample.result.evidence).toEqual([
          expect.objectContaining({
            kind: 'bench',
            source: 'pair',
            verdict: 'pass',
            detail: expect.objectContaining({ judge: 'genrm', outcome: 'correct' }),
          }),
        ]);
        expect(sample.judge_calls[0]).toHaveLength(2);
        const failed = (await (await request(`api/runs/${runId}/samples/p-4`)).json()) as {
          result: { errors: string[] };
        };
        expect(failed.result.errors[0]).toMatch(/field "chosen"/);
        const report = await request(`api/runs/${runId}/report`);
        expect(report.status).toBe(200);
        expect(await report.text()).toContain('Pairwise JSONL');
      });

      // A rerun resumes the same run: nothing is judged again, and the run stays whole.
      const calls = server.requests.length;
      const again = await runCli(benchArgs(models, output, store.flag));
      expect(again.code).toBe(3);
      expect(server.requests).toHaveLength(calls);
      expect(again.stdout).toContain(`run     ${runId}`);
      await withView(store.open, async (request) => {
        const runs = (await (await request('api/runs')).json()) as {
          runs: Array<{ id: string; status: string; results: number }>;
        };
        expect(runs.runs).toEqual([expect.objectContaining({ id: runId, status: 'finished', results: 4 })]);
      });
    },
  );

  test.skipIf(skip)(
    'judge pairwise stores a run of kind judge, each verdict with the GenRM judgment and its texts',
    async () => {
      const { dir, models } = setup();
      const store = await fresh(dir);
      const input = join(dir, 'pairs.jsonl');
      writeFileSync(
        input,
        `${JSON.stringify({ id: 'a', prompt: 'Say hi', first: 'ONE', second: 'TWO' })}\n${JSON.stringify({ id: 'b', prompt: 'Say bye' })}\n`,
      );
      server.script(atPosition1('ONE', 8, 3), { reply: { content: scores(3, 8) } });
      const output = join(dir, 'verdicts.jsonl');
      const run = await runCli([
        ...['judge', 'pairwise', '--models', models, '-m', 'judge', '-i', input, '-o', output],
        ...['--store', store.flag],
      ]);
      expect(run.code).toBe(3);
      expect(readJsonl(output).map((l) => l.id)).toEqual(['a', 'b']);
      const listed = await runCli(['runs', 'list', '--store', store.flag]);
      expect(listed.stdout).toMatch(
        /^run-\S+ +finished +judge pairwise:genrm .*kind=judge {2}judge pairwise --judge genrm \(judge\): 1 first, 1 failed$/m,
      );
      await withView(store.open, async (request) => {
        const runs = (await (await request('api/runs')).json()) as {
          runs: Array<{ id: string; kind: string; results: number; failed: number }>;
        };
        expect(runs.runs).toEqual([expect.objectContaining({ kind: 'judge', results: 2, failed: 1 })]);
        const runId = runs.runs[0]?.id as string;
        const sample = (await (await request(`api/runs/${runId}/samples/a`)).json()) as {
          result: {
            reward: number;
            evidence: Array<{ kind: string; detail: { verdict: string; comparisons: unknown[] } }>;
          };
          judge_calls: unknown[][];
          text: { prompt: string; response: string; reference: string };
        };
        expect(sample.result.reward).toBe(1);
        expect(sample.result.evidence[0]).toMatchObject({ kind: 'genrm', detail: { verdict: 'first' } });
        expect(sample.result.evidence[0]?.detail.comparisons).toHaveLength(2);
        expect(sample.judge_calls[0]).toHaveLength(2);
        expect(sample.text).toMatchObject({ prompt: 'Say hi', response: 'ONE', reference: 'TWO' });
      });
    },
  );
});

describe('rewardkit bench, stopped and resumed', () => {
  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s marks the stored run interrupted; the rerun resumes the same run and finishes it',
    async (signal) => {
      const { dir, models } = setup();
      const file = join(dir, 'store.sqlite');
      // p-1 answers at once; p-2 keeps its judge waiting until the run is stopped.
      server.script(
        { ...atPosition1('PW-GOOD-1', 9, 2), times: 2 },
        { ...atPosition1('PW-BAD-1', 2, 9), times: 2 },
        { ...atPosition1('PW-GOOD', 9, 2), delayMs: 1500 },
        { ...atPosition1('PW-BAD', 2, 9), delayMs: 1500 },
      );
      const output = join(dir, 'out.jsonl');
      const stopped = await runCli([...benchArgs(models, output, file), '--concurrency', '1'], {
        onSpawn: (kill) => {
          const poll = setInterval(() => {
            if (server.requests.some((r) => JSON.stringify(r.body.messages).includes('PW-GOOD-2'))) {
              clearInterval(poll);
              kill(signal);
            }
          }, 20);
        },
      });
      expect(stopped.code).toBe(130);
      const listed = await runCli(['runs', 'list', '--store', file]);
      const runId = /^(run-\S+) +interrupted +bench:pairwise .*kind=bench/m.exec(listed.stdout)?.[1];
      expect(runId).toBeDefined();

      // The items Ctrl-C cut short were not written: they are judged on the rerun.
      expect(readJsonl(output).map((line) => [line.id, line.status])).toEqual([['p-1', 'ok']]);

      const resumed = await runCli(benchArgs(models, output, file));
      expect(resumed.code).toBe(3);
      expect(resumed.stdout).toContain(`run     ${runId}`);
      expect(readJsonl(output).map((line) => [line.id, line.status])).toEqual([
        ['p-1', 'ok'],
        ['p-2', 'ok'],
        ['p-3', 'ok'],
        ['p-4', 'failed'],
      ]);
      const opened = openSqliteStore(file);
      try {
        expect((await opened.listResults(runId as string)).map((r) => [r.id, r.reward])).toEqual([
          ['p-1', 1],
          ['p-2', 1],
          ['p-3', 1],
          ['p-4', null],
        ]);
      } finally {
        await opened.close();
      }
      const relisted = await runCli(['runs', 'list', '--store', file]);
      expect(relisted.stdout).toMatch(new RegExp(`^${runId} +finished +bench:pairwise .*kind=bench`, 'm'));
      expect(relisted.stdout.match(/^run-/gm)).toHaveLength(1);
    },
  );
});

describe('rewardkit judge pairwise, stopped and resumed', () => {
  test('SIGTERM drains the rows in flight and leaves the run interrupted; the rerun finishes the same run', async () => {
    const { dir, models } = setup();
    const file = join(dir, 'store.sqlite');
    const input = join(dir, 'pairs.jsonl');
    const rows = ['a', 'b', 'c'].map((id) => ({ id, prompt: `PAIR-${id}`, first: 'ONE', second: 'TWO' }));
    writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    server.script(
      { ...atPosition1('ONE', 8, 3), delayMs: 300 },
      { ...atPosition1('TWO', 3, 8), delayMs: 300 },
    );
    const output = join(dir, 'verdicts.jsonl');
    const args = ['judge', 'pairwise', '--models', models, '-m', 'judge', '-i', input, '-o', output];
    const stopped = await runCli([...args, '-c', '1', '--store', file], {
      onSpawn: (kill) => {
        const poll = setInterval(() => {
          if (server.requests.length > 0) {
            clearInterval(poll);
            kill('SIGTERM');
          }
        }, 20);
      },
    });
    expect(stopped.code).toBe(130);
    const written = readJsonl(output).map((line) => [line.id, line.verdict]);
    // The rows in flight were judged to the end, none written as failed; the rest were not read.
    expect(written.length).toBeLessThan(3);
    expect(written.map(([, verdict]) => verdict)).toEqual(written.map(() => 'first'));
    const listed = await runCli(['runs', 'list', '--store', file]);
    const runId = /^(run-\S+) +interrupted +judge pairwise:genrm .*kind=judge/m.exec(listed.stdout)?.[1];
    expect(runId).toBeDefined();

    expect((await runCli([...args, '--store', file])).code).toBe(0);
    const relisted = await runCli(['runs', 'list', '--store', file]);
    expect(relisted.stdout).toMatch(
      new RegExp(`^${runId} +finished +judge pairwise:genrm .*: 3 first$`, 'm'),
    );
    expect(relisted.stdout.match(/^run-/gm)).toHaveLength(1);
  });
});

describe('lines written before the store had them', () => {
  test("are stored from the output on the rerun: bench's with their calls, judge pairwise's with their judgment", async () => {
    const { dir, models } = setup();
    const file = join(dir, 'store.sqlite');
    server.script(
      atPosition1('PW-GOOD', 9, 2),
      atPosition1('PW-BAD', 2, 9),
      atPosition1('ONE', 8, 3),
      atPosition1('TWO', 3, 8),
    );
    const output = join(dir, 'out.jsonl');
    // A run killed before its store batch committed leaves the same: lines the store lacks.
    expect((await runCli(benchArgs(models, output, 'none'))).code).toBe(3);
    const pairs = join(dir, 'pairs.jsonl');
    writeFileSync(pairs, `${JSON.stringify({ id: 'a', prompt: 'Say hi', first: 'ONE', second: 'TWO' })}\n`);
    const verdicts = join(dir, 'verdicts.jsonl');
    const pairwise = ['judge', 'pairwise', '--models', models, '-m', 'judge', '-i', pairs, '-o', verdicts];
    expect((await runCli([...pairwise, '--store', 'none'])).code).toBe(0);
    const calls = server.requests.length;

    const bench = await runCli(benchArgs(models, output, file));
    expect(bench.code).toBe(3);
    expect((await runCli([...pairwise, '--store', file])).code).toBe(0);
    expect(server.requests).toHaveLength(calls);
    const listed = await runCli(['runs', 'list', '--store', file]);
    expect(listed.stdout).toMatch(/^run-\S+ +finished +bench:pairwise /m);
    expect(listed.stdout).toMatch(/^run-\S+ +finished +judge pairwise:genrm .*: 1 first$/m);
    const benchRun = /^ {2}run {5}(run-\S+)/m.exec(bench.stdout)?.[1] as string;
    await withView(
      async () => openSqliteStore(file),
      async (request) => {
        const page = (await (await request(`api/runs/${benchRun}/samples`)).json()) as { total: number };
        expect(page.total).toBe(4);
        const item = (await (await request(`api/runs/${benchRun}/samples/p-2`)).json()) as {
          result: { reward: number };
          judge_calls: unknown[][];
        };
        expect(item.result.reward).toBe(1);
        expect(item.judge_calls[0]).toHaveLength(2);
        const runs = (await (await request('api/runs')).json()) as {
          runs: Array<{ id: string; kind: string }>;
        };
        const judgeRun = runs.runs.find((r) => r.kind === 'judge')?.id as string;
        const pair = (await (await request(`api/runs/${judgeRun}/samples/a`)).json()) as {
          result: { reward: number; evidence: Array<{ kind: string; detail: { verdict: string } }> };
        };
        expect(pair.result).toMatchObject({
          reward: 1,
          evidence: [{ kind: 'genrm', detail: { verdict: 'first' } }],
        });
      },
    );
  });
});
