import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqliteStore } from '../src/store/index.js';
import { bubblewrapWorks } from '../src/verify/code/python-runner.js';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';

const hasBwrap = bubblewrapWorks();

const mathRow = (i: number, correct = true) =>
  JSON.stringify({
    id: `m${i}`,
    data_source: 'gsm8k',
    response: `#### ${correct ? i : i + 1}`,
    reference: String(i),
  });

describe('rewardkit score', () => {
  test.each(['0', '2'])(
    "should store each sample's prompt, response and reference for the inspector (--workers %s)",
    async (workers) => {
      const dir = tempDir();
      const input = join(dir, 'in.jsonl');
      const store = join(dir, 'store.sqlite');
      const rows = [
        { id: 'one', prompt: 'Q', response: '#### 4', reference: '4' },
        { id: 'list', response: '#### 5', reference: ['5', 'five'] },
        { id: 'none', response: '#### 6' },
      ];
      writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
      const run = await runCli([
        ...['score', '--spec', 'math', '--input', input, '--output', join(dir, 'out.jsonl')],
        ...['--store', store, '--workers', workers],
      ]);
      // The row without a reference fails math (exit 3) and keeps its text all the same.
      expect(run.code).toBe(3);
      const opened = openSqliteStore(store, { readonly: true });
      try {
        const [stored] = await opened.listRuns();
        const runId = stored?.id as string;
        expect(await opened.getSampleText(runId, 'one')).toEqual({
          prompt: 'Q',
          response: '#### 4',
          reference: '4',
        });
        expect(await opened.getSampleText(runId, 'list')).toEqual({
          response: '#### 5',
          reference: ['5', 'five'],
        });
        expect(await opened.getSampleText(runId, 'none')).toEqual({ response: '#### 6' });
      } finally {
        await opened.close();
      }
    },
  );

  test.skipIf(!hasBwrap)('should score the bundled example dataset with the default preset', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    const run = await runCli(['score', '--input', join(repoRoot, 'examples/mixed.jsonl'), '--output', out]);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    const results = readJsonl(out);
    const input = readJsonl(join(repoRoot, 'examples/mixed.jsonl'));
    expect(results.map((r) => r.id)).toEqual(input.map((r) => r.id));
    const reward = Object.fromEntries(results.map((r) => [r.id, r.reward]));
    expect(reward).toMatchObject({
      'gsm8k-1': 1,
      'gsm8k-3': 0,
      'math-1': 1,
      'math-4': 1,
      'math-6': 0,
      'ifeval-1': 1,
      'code-1': 1,
      'code-2': 0,
      'code-3': 1,
      'qa-1': 1,
      'qa-3': 0,
    });
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    expect(run.stdout).toMatch(/scored\s+21/);
    expect(run.stdout).toMatch(/failed\s+0/);
  });

  // Without bubblewrap the Python rows are refused, recorded as failed with the reason, and the
  // run goes on (exit 3); the JavaScript row still runs in QuickJS.
  test.skipIf(hasBwrap)(
    'should record the Python code rows as failed, naming bubblewrap, on a machine without it',
    async () => {
      const out = join(tempDir(), 'out.jsonl');
      const run = await runCli(['score', '--input', join(repoRoot, 'examples/mixed.jsonl'), '--output', out]);
      expect(run.code).toBe(3);
      const results = readJsonl(out);
      const failed = results.filter((r) => r.status === 'failed').map((r) => r.id);
      expect(failed).toEqual(['code-1', 'code-2', 'code-3']);
      expect(results.find((r) => r.id === 'code-1')?.errors).toEqual([
        expect.stringMatching(/bubblewrap is not available/),
      ]);
      expect(results.find((r) => r.id === 'code-4')).toMatchObject({ status: 'ok', reward: 1 });
    },
  );

  test('should write the finished run as a self-contained HTML report with --report, and need a store for it', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(
      input,
      // The row with markup scores 0 before the other 0, so the one-row "lowest rewards" list holds it.
      `${mathRow(1)}\n${JSON.stringify({ id: 'x', data_source: 'gsm8k', response: '<script>alert(1)</script> #### 3', reference: '4' })}\n${mathRow(2, false)}\n`,
    );
    const report = join(dir, 'report.html');
    const run = await runCli([
      'score',
      '--spec',
      'math',
      '--input',
      input,
      '--output',
      join(dir, 'out.jsonl'),
      '--store',
      join(dir, 'store.sqlite'),
      '--report',
      report,
    ]);
    expect(run.code).toBe(0);
    const html = readFileSync(report, 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script|src="http/);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('Lowest rewards (1 of 3)');
    const none = await runCli([
      'score',
      '--spec',
      'math',
      '--input',
      input,
      '--output',
      '-',
      '--store',
      'none',
      '--report',
      report,
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--report is written from the stored run: it needs a store/);
  });

  test('should record malformed rows as failed with file, line and field, and go on', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    writeFileSync(
      input,
      Buffer.concat([
        Buffer.from(`${mathRow(1)}\n{"id": "broken", "response": \n{"id": "nofield"}\n`),
        Buffer.from('{"id": "latin1", "response": "caf'),
        Buffer.from([0xe9]),
        Buffer.from(
          `"}\n${mathRow(1)}\n{"id": "noref", "data_source": "gsm8k", "response": "#### 3"}\n${mathRow(2)}\n`,
        ),
      ]),
    );
    const run = await runCli(['score', '--spec', 'math', '--input', input, '--output', out]);
    expect(run.code).toBe(3);
    const results = readJsonl(out);
    expect(results.map((r) => [r.id, r.status, r.reward])).toEqual([
      ['m1', 'ok', 1],
      ['line:2', 'failed', null],
      ['nofield', 'failed', null],
      ['line:4', 'failed', null],
      ['line:5', 'failed', null],
      ['noref', 'failed', null],
      ['m2', 'ok', 1],
    ]);
    const errors = results.map((r) => (r.errors as string[]).join(' '));
    expect(errors[1]).toMatch(new RegExp(`^${escapeRegExp(input)}:2: invalid JSON`));
    expect(errors[2]).toBe(
      `${input}:3: field "response": Invalid input: expected string, received undefined`,
    );
    expect(errors[3]).toBe(`${input}:4: not valid UTF-8 (at byte 33 of the line)`);
    expect(errors[4]).toMatch(/:5: field "id": duplicate id "m1" \(first seen on line 1\)/);
    expect(errors[5]).toMatch(/source "math" could not be checked: the sample has no "reference"/);
    expect(run.stdout).toMatch(/failed\s+5/);
    expect(run.stdout).toMatch(/first failures:/);
  });

  test('should resume after an interrupted run: torn last line repaired, done ids skipped', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    writeFileSync(input, `${Array.from({ length: 40 }, (_, i) => mathRow(i, i % 3 !== 0)).join('\n')}\n`);
    const first = await runCli(['score', '--spec', 'math', '--input', input, '--output', out]);
    expect(first.code).toBe(0);
    const full = readFileSync(out, 'utf8').split('\n');
    // Keep 15 complete results and half of the 16th, as a killed process would leave them.
    writeFileSync(out, `${full.slice(0, 15).join('\n')}\n${(full[15] ?? '').slice(0, 30)}`);
    const second = await runCli(['score', '--spec', 'math', '--input', input, '--output', out]);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/removed a partly written last line/);
    expect(second.stdout).toMatch(/skipped\s+15/);
    const results = readJsonl(out);
    expect(results.map((r) => r.id)).toEqual(Array.from({ length: 40 }, (_, i) => `m${i}`));
    expect(results.map((r) => r.reward)).toEqual(Array.from({ length: 40 }, (_, i) => (i % 3 !== 0 ? 1 : 0)));
  });

  test('should stop on SIGINT with what it scored written, and finish on the next run', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    const store = join(dir, 'store.sqlite');
    const rows = 20_000;
    writeFileSync(input, `${Array.from({ length: rows }, (_, i) => mathRow(i)).join('\n')}\n`);
    const first = await runCli(
      ['score', '--spec', 'math', '--input', input, '--output', out, '--store', store, '-c', '1'],
      {
        onSpawn: (kill) => {
          const poll = setInterval(() => {
            try {
              if (readFileSync(out, 'utf8').length > 2000) {
                clearInterval(poll);
                kill('SIGINT');
              }
            } catch {}
          }, 20);
        },
      },
    );
    expect(first.code).toBe(130);
    const partial = readJsonl(out).length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(rows);
    const second = await runCli([
      'score',
      '--spec',
      'math',
      '--input',
      input,
      '--output',
      out,
      '--store',
      store,
    ]);
    expect(second.code).toBe(0);
    const ids = readJsonl(out).map((r) => r.id);
    expect(ids.length).toBe(rows);
    expect(new Set(ids).size).toBe(rows);
    const runs = await runCli(['runs', 'list', '--store', store]);
    expect(runs.stdout).toMatch(/finished/);
  });

  test('should read stdin and write stdout with the summary on stderr', async () => {
    const run = await runCli(['score', '--spec', 'math', '--input', '-', '--output', '-'], {
      stdin: `${mathRow(7)}\n${mathRow(8, false)}\n`,
    });
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).reward),
    ).toEqual([1, 0]);
    expect(run.stderr).toMatch(/mean reward\s+0\.5000/);
  });

  test('should store the run, its results and failures', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const store = join(dir, 'store.sqlite');
    writeFileSync(input, `${mathRow(1)}\n${mathRow(2, false)}\nnot json\n`);
    const run = await runCli([
      'score',
      '--spec',
      'math',
      '--input',
      input,
      '--output',
      join(dir, 'o.jsonl'),
      '--store',
      store,
    ]);
    expect(run.code).toBe(3);
    const runId = /run\s+(\S+)/.exec(run.stdout)?.[1] as string;
    const shown = await runCli(['runs', 'show', runId, '--store', store]);
    expect(shown.code).toBe(0);
    const detail = JSON.parse(shown.stdout);
    expect(detail).toMatchObject({
      id: runId,
      status: 'finished',
      spec_name: 'math',
      summary: { rows: 3, failed: 1 },
    });
    expect(detail.failures).toEqual([
      { sample_id: 'line:3', reasons: [expect.stringMatching(/:3: invalid JSON/)] },
    ]);
    expect(detail.sources).toEqual([expect.objectContaining({ source: 'math', count: 2, mean: 0.5 })]);
  });

  test.each([
    [
      ['score', '--spec', 'mth', '--input', 'examples/mixed.jsonl', '--output', '/dev/null'],
      1,
      /Unknown preset "mth" \(did you mean "math"\?\)/,
    ],
    [['score', '--input', 'nope.jsonl', '--output', '/dev/null'], 2, /--input nope\.jsonl: not found/],
    [['score', '--input', 'examples/mixed.jsonl'], 2, /required option '-o, --output <file>' not specified/],
    [
      ['score', '-c', '0', '--input', 'x', '--output', 'y'],
      2,
      /--concurrency expects a positive integer, got "0"/,
    ],
    [['scor'], 2, /unknown command 'scor'/],
  ])('should explain %j and exit %s', async (args, code, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });

  test('should point at the line of an invalid spec file', async () => {
    const dir = tempDir();
    const spec = join(dir, 'spec.yaml');
    writeFileSync(spec, 'sources:\n  - kind: math\n  - kind: regexp\n');
    appendFileSync(spec, 'aggregate: mean\n');
    const run = await runCli([
      'score',
      '--spec',
      spec,
      '--input',
      'examples/mixed.jsonl',
      '--output',
      join(dir, 'o.jsonl'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`→ at aggregate (${spec}:4:12)`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
