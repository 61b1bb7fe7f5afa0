import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AUTO_WORKERS_MIN_ROWS, autoWorkers, scoreWorkers } from '../src/cli/scoring-evaluator.js';
import { readParquetRecords } from '../src/dataset/index.js';
import { type VerlRow, writeVerlParquet } from '../src/dataset/test-utils/verl-parquet.js';
import { openSqliteStore } from '../src/store/index.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { startServe } from './serve-harness.js';

const rows = Array.from({ length: 40 }, (_, i) =>
  JSON.stringify({ id: `m${i}`, response: `#### ${i % 3 === 0 ? i + 1 : i}`, reference: String(i) }),
);
/** Results as a first run would have written them (only their ids matter to resume). */
const readJsonlLines = (lines: readonly string[]) =>
  lines.map((line) => `${JSON.stringify({ id: JSON.parse(line).id, status: 'ok', reward: 0 })}\n`).join('');

const withoutTimings = (results: Record<string, unknown>[]): Record<string, unknown>[] =>
  results.map(({ timings: _t, evidence, ...rest }) => ({
    ...rest,
    evidence: (evidence as Record<string, unknown>[]).map(({ elapsed_ms: _e, ...piece }) => piece),
  }));

/** `score --spec math` of `dir/in.jsonl` into `output`, with further flags. */
const scoreMath = (dir: string, output: string, ...flags: string[]) =>
  runCli(['score', '--spec', 'math', '-i', join(dir, 'in.jsonl'), '-o', output, ...flags]);

describe('--workers', () => {
  test('should read, check and score on the workers as on the main thread: bad rows, repeated and missing ids, summary and store', async () => {
    const dir = tempDir();
    const lines = [
      ...rows.slice(0, 5),
      '{"id": "broken", "response": ',
      JSON.stringify({ id: 'no-response', reference: '1' }),
      JSON.stringify({ id: 'm1', response: '#### 1', reference: '1' }),
      JSON.stringify({ response: '#### 7', reference: '7' }),
      ...rows.slice(5),
    ];
    // Enough rows for several chunks, so repeated ids meet across workers.
    const many = [...lines, ...Array.from({ length: 600 }, (_, i) => rows[i % rows.length])];
    writeFileSync(join(dir, 'in.jsonl'), `${many.join('\n')}\n`);
    const runs = [];
    for (const workers of ['0', '3']) {
      const out = join(dir, `out-${workers}.jsonl`);
      const store = join(dir, `s${workers}.sqlite`);
      const summary = join(dir, `summary-${workers}.json`);
      const run = await scoreMath(dir, out, '--workers', workers, '--store', store, '--summary', summary);
      expect(run.code).toBe(3);
      const opened = openSqliteStore(store);
      const [stored] = await opened.listRuns();
      const results = await opened.listResults(stored?.id as string);
      const sources = await opened.sourceStats(stored?.id as string);
      await opened.close();
      const { elapsed_ms: _e, rows_per_s: _r, ...counts } = JSON.parse(readFileSync(summary, 'utf8'));
      runs.push({
        output: withoutTimings(readJsonl(out)),
        stored: withoutTimings(results as unknown as Record<string, unknown>[]),
        sources,
        counts,
      });
    }
    const [main, workers] = runs;
    expect(workers?.output).toEqual(main?.output);
    expect(workers?.stored).toEqual(main?.stored);
    expect(workers?.sources).toEqual(main?.sources);
    expect(workers?.counts).toEqual(main?.counts);
    const byId = new Map(workers?.output.map((r) => [r.id, r]));
    const firstError = (id: string) => (byId.get(id)?.errors as string[] | undefined)?.[0];
    expect(firstError('line:6')).toMatch(/in\.jsonl:6: invalid JSON/);
    expect(firstError('no-response')).toMatch(/in\.jsonl:7: field "response"/);
    expect(firstError('line:8')).toMatch(/duplicate id "m1" \(first seen on line 2\)/);
    expect(byId.get('line:9')?.reward).toBe(1);
    expect(workers?.output).toHaveLength(many.length);
  });

  test("should save a main-thread run larger than a batch on the store's thread, as saving inline stores it", async () => {
    const dir = tempDir();
    const many = Array.from({ length: 700 }, (_, i) =>
      i === 300
        ? '{"id": "broken", '
        : JSON.stringify({ id: `r${i}`, response: `#### ${i % 5}`, reference: '1' }),
    );
    writeFileSync(join(dir, 'in.jsonl'), `${many.join('\n')}\n`);
    const stored = [];
    for (const writer of ['thread', 'inline']) {
      const store = join(dir, `${writer}.sqlite`);
      const run = await runCli(
        [
          'score',
          '--spec',
          'math',
          '-i',
          join(dir, 'in.jsonl'),
          '-o',
          join(dir, `${writer}.jsonl`),
          '--workers',
          '0',
          '--store',
          store,
        ],
        writer === 'inline' ? { env: { REWARDKIT_STORE_WRITER: 'inline' } } : {},
      );
      expect(run.code).toBe(3);
      const opened = openSqliteStore(store);
      const [saved] = await opened.listRuns();
      stored.push({
        results: withoutTimings(
          (await opened.listResults(saved?.id as string)) as unknown as Record<string, unknown>[],
        ),
        sources: await opened.sourceStats(saved?.id as string),
      });
      await opened.close();
    }
    const [thread, inline] = stored;
    expect(thread?.results).toHaveLength(700);
    expect(thread?.results.map((r) => r.id)).toEqual(inline?.results.map((r) => r.id));
    expect(thread).toEqual(inline);
  });

  test('should resume on the workers, skipping the ids already written, and write Parquet', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), `${rows.join('\n')}\n`);
    const out = join(dir, 'out.jsonl');
    writeFileSync(out, `${readJsonlLines(rows.slice(0, 15))}`);
    const run = await scoreMath(dir, out, '--workers', '2', '--store', 'none');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/skipped\s+15/);
    expect(readJsonl(out).map((r) => r.id)).toEqual(rows.map((_, i) => `m${i}`));

    const verl: VerlRow[] = Array.from({ length: 300 }, (_, i) => ({
      data_source: 'openai/gsm8k',
      prompt: [{ role: 'user', content: `What is ${i} + ${i}?` }],
      reward_model: { style: 'rule', ground_truth: String(2 * i) },
      extra_info: { split: 'test', index: BigInt(i) },
      responses: [`#### ${2 * i}`, `#### ${2 * i + 1}`],
    }));
    writeVerlParquet(join(dir, 'verl.parquet'), verl, 100);
    const parquetOut = join(dir, 'out.parquet');
    const scored = await runCli([
      'score',
      '--spec',
      'math',
      '--format',
      'verl',
      '-i',
      join(dir, 'verl.parquet'),
      '-o',
      parquetOut,
      '--workers',
      '2',
      '--store',
      'none',
    ]);
    expect(scored.code).toBe(0);
    const results: Record<string, unknown>[] = [];
    for await (const r of readParquetRecords(parquetOut)) results.push(r.value as Record<string, unknown>);
    expect(results.map((r) => [r.id, r.reward])).toEqual(
      verl.flatMap((_, i) => [
        [`${i}#0`, 1],
        [`${i}#1`, 0],
      ]),
    );
  });

  test('should start threads by default only for an input large enough to pay back their start-up', async () => {
    const dir = tempDir();
    const many = Array.from({ length: AUTO_WORKERS_MIN_ROWS }, (_, i) =>
      JSON.stringify({ id: `r${i}`, response: `#### ${i % 5 === 0 ? i + 1 : i}`, reference: String(i) }),
    );
    writeFileSync(join(dir, 'in.jsonl'), `${many.join('\n')}\n`);
    // `reference` starts the cores less one; `math`, a light spec, fewer (none on 2 cores).
    for (const spec of ['reference', 'math']) {
      const threads = scoreWorkers('auto', AUTO_WORKERS_MIN_ROWS, { light: spec === 'math' });
      expect(threads).toBe(
        spec === 'math' ? (availableParallelism() <= 2 ? 0 : Math.min(2, autoWorkers())) : autoWorkers(),
      );
      const score = (output: string, ...flags: string[]) =>
        runCli([
          'score',
          '--spec',
          spec,
          '-i',
          join(dir, 'in.jsonl'),
          '-o',
          join(dir, output),
          '--store',
          'none',
          ...flags,
        ]);
      const byDefault = await score(`${spec}-auto.jsonl`);
      expect(byDefault.code).toBe(0);
      if (availableParallelism() > 1 && threads > 0) {
        expect(byDefault.stderr).toContain(
          `scoring 30,000 rows on ${threads} worker thread${threads === 1 ? '' : 's'} (--workers auto`,
        );
      } else {
        expect(byDefault.stderr).not.toContain('worker thread');
      }
      const mainThread = await score(`${spec}-main.jsonl`, '--workers', '0');
      expect(mainThread.stderr).not.toContain('worker thread');
      expect(withoutTimings(readJsonl(join(dir, `${spec}-auto.jsonl`)))).toEqual(
        withoutTimings(readJsonl(join(dir, `${spec}-main.jsonl`))),
      );
    }

    writeFileSync(join(dir, 'in.jsonl'), `${many.slice(0, AUTO_WORKERS_MIN_ROWS - 1).join('\n')}\n`);
    const small = await scoreMath(dir, join(dir, 'small.jsonl'), '--store', 'none');
    expect(small.code).toBe(0);
    expect(small.stderr).not.toContain('worker thread');
  });

  test('should read stdin and write stdout on the workers, in input order', async () => {
    const run = await runCli(['score', '--spec', 'math', '-i', '-', '-o', '-', '--workers', '2'], {
      stdin: `${rows.join('\n')}\n`,
    });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string });
    expect(lines.map((r) => r.id)).toEqual(rows.map((_, i) => `m${i}`));
  });

  test('should stop on SIGTERM with every row it wrote whole, and resume to each id exactly once', async () => {
    const dir = tempDir();
    const many = Array.from({ length: 60_000 }, (_, i) =>
      JSON.stringify({ id: `r${i}`, response: `#### ${i}`, reference: String(i) }),
    );
    writeFileSync(join(dir, 'in.jsonl'), `${many.join('\n')}\n`);
    const out = join(dir, 'out.jsonl');
    const stopped = await runCli(
      ['score', '--spec', 'math', '-i', join(dir, 'in.jsonl'), '-o', out, '--workers', '2'],
      {
        // Stopped once the first lines are out, however slow the machine is to start.
        onSpawn: (kill) => {
          const poll = setInterval(() => {
            if (existsSync(out) && statSync(out).size > 0) {
              clearInterval(poll);
              kill('SIGTERM');
            }
          }, 20);
        },
      },
    );
    expect(stopped.code).toBe(130);
    const first = readJsonl(out).length;
    expect(first).toBeLessThan(many.length);
    const resumed = await scoreMath(dir, out, '--workers', '2');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`skipped\\s+${first}\\b`));
    const ids = readJsonl(out).map((r) => r.id);
    expect(ids).toHaveLength(many.length);
    expect(new Set(ids).size).toBe(many.length);
  });

  test('should take --workers auto and refuse anything but a count or auto', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), `${rows.join('\n')}\n`);
    const auto = await scoreMath(dir, join(dir, 'out.jsonl'), '--workers', 'auto', '--store', 'none');
    expect(auto.code).toBe(0);
    expect(readJsonl(join(dir, 'out.jsonl'))).toHaveLength(rows.length);
    const bad = await scoreMath(dir, join(dir, 'bad.jsonl'), '--workers', 'many');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--workers expects an integer ≥ 0 or "auto", got "many"');
  });

  test('should answer /get_reward from worker threads and store the results', async () => {
    const dir = tempDir();
    const serving = await startServe([
      '--spec',
      'math',
      '--workers',
      '2',
      '--store',
      join(dir, 'store.sqlite'),
    ]);
    try {
      const response = await fetch(`${serving.url}/get_reward`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: ['Q: 2+2? #### 4', 'Q: 2+3? #### 6'],
          prompts: ['Q: 2+2? ', 'Q: 2+3? '],
          labels: ['4', '5'],
        }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { rewards: number[] }).rewards).toEqual([1, 0]);
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
    const runs = await runCli(['runs', 'list', '--store', join(dir, 'store.sqlite')]);
    expect(runs.stdout).toMatch(/serve:math.*finished|finished.*serve:math/);
  });
});
