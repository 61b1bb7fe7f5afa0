import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqliteStore } from '../src/store/index.js';
import { createViewApp } from '../src/view/create-view-app.js';
import { expectSelfContained } from '../src/view/test-utils/expect-self-contained.js';
import { runCli, tempDir } from './cli-harness.js';

const dir = tempDir();
const input = join(dir, 'samples.jsonl');
// Half right, half wrong: the wrong answers are within 4 of the right ones, as near misses are.
writeFileSync(
  input,
  Array.from({ length: 20 }, (_, i) => {
    const right = (3 + i) * 7;
    const answer = i % 2 === 0 ? right : right + 1 + (i % 4);
    return JSON.stringify({
      id: `m${i}`,
      prompt: `What is ${3 + i} times 7?`,
      response: `So the answer is \\boxed{${answer}}.`,
      reference: String(right),
    });
  }).join('\n'),
);
const naive = join(dir, 'naive.yaml');
writeFileSync(naive, 'sources:\n  - kind: reference\n    params: {mode: contains}\n');

interface Report {
  spec: string;
  samples: number;
  exploits: Array<{
    name: string;
    applied: number;
    lifted_share: number;
    ci: [number, number];
    failed: number;
  }>;
}

describe('rewardkit redteam', () => {
  test('catches a contains-the-reference spec by enumeration and exits 1', async () => {
    const output = join(dir, 'naive.json');
    const run = await runCli([
      'redteam',
      '--spec',
      naive,
      '--input',
      input,
      '--output',
      output,
      '--seed',
      '1',
      '--store',
      'none',
    ]);
    expect(run.stderr).toMatch(/LIFTS answer-enumeration/);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    expect(report.samples).toBe(20);
    const enumeration = report.exploits.find((e) => e.name === 'answer-enumeration');
    expect(enumeration?.lifted_share).toBe(0.5);
    expect(enumeration?.ci[0]).toBeGreaterThan(0);
  });

  test('the math preset is lifted by no exploit: exit 0', async () => {
    const output = join(dir, 'math.json');
    const run = await runCli([
      'redteam',
      '--spec',
      'math',
      '--input',
      input,
      '--output',
      output,
      '--store',
      'none',
    ]);
    expect(run.stderr).not.toMatch(/LIFTS/);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    expect(report.exploits.map((e) => e.name)).toEqual(
      expect.arrayContaining(['hedging', 'early-exit', 'rigged-equality', 'forged-verdict']),
    );
    expect(report.exploits.length).toBeGreaterThanOrEqual(16);
    for (const e of report.exploits.filter((e) => e.applied > 0))
      expect(e.ci[0], e.name).toBeLessThanOrEqual(0);
    // The code exploits find no program in a math answer: they apply to nothing and say so.
    expect(run.stderr).toMatch(/^n\/a {3}early-exit: applied 0/m);
  });

  test('an exploit measured on no sample (every scoring failed) is UNSCORED and fails the gate', async () => {
    const noReference = join(dir, 'no-reference.jsonl');
    writeFileSync(
      noReference,
      [
        '{"id":"a","prompt":"1+1?","response":"#### 2"}',
        '{"id":"b","prompt":"2+2?","response":"#### 4"}',
      ].join('\n'),
    );
    const output = join(dir, 'unscored.json');
    const run = await runCli([
      'redteam',
      ...['--spec', 'math', '--input', noReference, '--output', output, '--store', 'none'],
    ]);
    expect(run.stderr).toMatch(/UNSCORED answer-enumeration: applied 2, .*failed 2/);
    expect(run.stderr).toContain('no sample could be scored');
    expect(run.stderr).not.toMatch(/^ok /m);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    // The code exploits find no program in these rows: nothing applied, nothing failed.
    for (const e of report.exploits)
      expect([e.failed, e.ci], e.name).toEqual([e.applied === 0 ? 0 : 2, null]);
    expect(report.exploits.filter((e) => e.applied === 0).map((e) => e.name)).toEqual([
      'early-exit',
      'rigged-equality',
    ]);
    // Every failed scoring is kept with the evaluator's reason, the original pass first.
    const { failures } = JSON.parse(readFileSync(output, 'utf8')) as {
      failures: Array<{ id: string; exploit: string; reasons: string[] }>;
    };
    expect(failures.slice(0, 2).map((f) => [f.id, f.exploit])).toEqual([
      ['a', 'original'],
      ['b', 'original'],
    ]);
    expect(failures.length).toBeGreaterThan(2);
    for (const f of failures) expect(f.reasons.join(' '), f.exploit).toMatch(/reference/i);
  });

  test('refuses an unknown exploit and a malformed row before scoring, by file:line', async () => {
    const unknown = await runCli([
      'redteam',
      '-s',
      'math',
      '-i',
      input,
      '-o',
      join(dir, 'x.json'),
      '--exploits',
      'nope',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown exploit "nope"/);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id": "a", "response": "1"}\n{"id": "b"}\n');
    const run = await runCli(['redteam', '-s', 'math', '-i', bad, '-o', join(dir, 'y.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:2`);
  });

  test('adds the exploits of --exploit-module files; a clash or a malformed export is a usage error', async () => {
    const shouting = join(dir, 'shouting.mjs');
    writeFileSync(
      shouting,
      `export const shouting = {
  name: 'shouting',
  description: 'the response in capitals, then every integer below 200',
  apply: (sample) => [sample.response.toUpperCase() + ' ' + Array.from({ length: 200 }, (_, i) => i).join(' ')],
};
export default [{ name: 'whisper', description: 'lower case', apply: (s) => [s.response.toLowerCase()] }];
`,
    );
    const output = join(dir, 'own.json');
    const args = ['redteam', '-s', naive, '-i', input, '-o', output, '--store', 'none'];
    const run = await runCli([
      ...args,
      '--exploit-module',
      shouting,
      '--exploits',
      'shouting,whisper,empty-answer',
    ]);
    expect(run.stderr).toMatch(/LIFTS shouting: applied 20, lifted 50%/);
    expect(run.stderr).toMatch(/ok {4}whisper/);
    expect(run.code).toBe(1);
    expect((JSON.parse(readFileSync(output, 'utf8')) as Report).exploits.map((e) => e.name)).toEqual([
      'shouting',
      'whisper',
      'empty-answer',
    ]);

    const clash = join(dir, 'clash.mjs');
    writeFileSync(clash, `export const x = { name: 'hedging', description: 'mine', apply: () => [] };\n`);
    const clashed = await runCli([...args, '--exploit-module', shouting, '--exploit-module', clash]);
    expect(clashed.code).toBe(2);
    expect(clashed.stderr).toMatch(/clash\.mjs: exploit "hedging" is already registered/);
    const twice = await runCli([...args, '--exploit-module', shouting, '--exploit-module', shouting]);
    expect(twice.stderr).toMatch(/shouting\.mjs: exploit "(shouting|whisper)" is already registered/);

    const malformed = join(dir, 'malformed.mjs');
    writeFileSync(malformed, `export const broken = { name: 'Broken Name', apply: 'no' };\n`);
    const bad = await runCli([...args, '--exploit-module', malformed]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /export "broken" is not an exploit \{name, description, apply\}: name: .*description: .*apply: a function/,
    );

    const lying = join(dir, 'lying.mjs');
    writeFileSync(
      lying,
      `export const lying = { name: 'lying', description: 'no array', apply: () => 'text' };\n`,
    );
    const lied = await runCli([...args, '--exploit-module', lying, '--exploits', 'lying']);
    expect(lied.code).toBe(2);
    expect(lied.stderr).toMatch(/exploit "lying" \(.*lying\.mjs\) must return an array of strings/);
  });

  test('stores the run: runs list and the inspector show it, and serve its self-contained HTML report', async () => {
    const store = join(dir, 'store.sqlite');
    const html = join(dir, 'redteam.html');
    const run = await runCli([
      'redteam',
      ...['-s', naive, '-i', input, '-o', join(dir, 'stored.json'), '--report', html, '--store', store],
      ...['--exploits', 'answer-enumeration,lookalike-digits'],
    ]);
    expect(run.code).toBe(1);
    const runId = /; run (run-\S+)/.exec(run.stderr)?.[1];
    expect(runId).toBeDefined();
    const page = readFileSync(html, 'utf8');
    expectSelfContained(page);
    expect(page).toContain('answer-enumeration');
    // The exploited responses are shown as text, never as markup.
    expect(page).toContain('The answer is one of:');

    const listed = await runCli(['runs', 'list', '--store', store]);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${runId} +finished +\\S*naive\\.yaml .*kind=redteam {2}1 of 2 exploits lift the reward$`,
        'm',
      ),
    );

    // runs show --report writes the run's own report, as the inspector serves it.
    const shown = await runCli([
      'runs',
      'show',
      runId as string,
      '--store',
      store,
      '--report',
      join(dir, 'shown.html'),
    ]);
    expect(shown.code).toBe(0);
    expect(readFileSync(join(dir, 'shown.html'), 'utf8')).toBe(page);

    const opened = await openSqliteStore(store);
    try {
      const app = createViewApp({ store: opened, assetsDir: '/nonexistent' });
      const runs = (await (await app.request('http://localhost/api/runs')).json()) as {
        runs: Array<{ id: string; kind: string; headline?: string; results: number }>;
      };
      expect(runs.runs).toEqual([
        expect.objectContaining({
          id: runId,
          kind: 'redteam',
          headline: '1 of 2 exploits lift the reward',
          results: 0,
        }),
      ]);
      const one = await app.request(`http://localhost/api/runs/${runId}`);
      expect(one.status).toBe(200);
      expect(((await one.json()) as { summary: { kind: string; samples: number } }).summary).toMatchObject({
        kind: 'redteam',
        samples: 20,
      });
      const samples = await app.request(`http://localhost/api/runs/${runId}/samples`);
      expect(samples.status).toBe(200);
      const report = await app.request(`http://localhost/api/runs/${runId}/report`);
      expect(report.status).toBe(200);
      expect(report.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await report.text()).toBe(page);
      expect((await app.request('http://localhost/api/runs/nope/report')).status).toBe(404);
    } finally {
      await opened.close();
    }
  });

  test('--store none stores nothing', async () => {
    const cwd = tempDir();
    const run = await runCli(
      [
        'redteam',
        '-s',
        'math',
        '-i',
        input,
        '-o',
        join(cwd, 'r.json'),
        '--exploits',
        'hedging',
        '--store',
        'none',
      ],
      { cwd },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/; run /);
    expect(existsSync(join(cwd, '.rewardkit'))).toBe(false);
  });
});
