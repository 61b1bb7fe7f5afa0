import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot, runCli, tempDir } from './cli-harness.js';

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('rewardkit verify math', () => {
  test('should print one verdict per row, in order, with what was extracted', async () => {
    const rows = [
      { id: 1, reference: '72', response: 'so 48 + 24 = 72\n#### 72' },
      { id: 'b', reference: '\\frac{1}{2}', response: 'The answer is \\boxed{0.5}.' },
      { id: 'c', reference: ['3', 'three'], response: 'I think it is \\boxed{4}' },
    ];
    const run = await runCli(['verify', 'math', '--input', '-'], {
      stdin: rows.map((r) => JSON.stringify(r)).join('\n'),
    });
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out.map((r) => [r.id, r.correct, r.extracted])).toEqual([
      ['1', true, '72'],
      ['b', true, '0.5'],
      ['c', false, '4'],
    ]);
    expect(out[0]).toHaveProperty('reason');
  });

  test('should print an error line for a malformed row and exit 3', async () => {
    const run = await runCli(['verify', 'math', '--input', '-'], {
      stdin: '{"id": 1, "response": "#### 1"}\n{"id": 2, "reference": "2", "response": "#### 2"}\n',
    });
    expect(run.code).toBe(3);
    const out = lines(run.stdout);
    expect(out[0]).toEqual({ id: '1', error: '<stdin>:1: field "reference": Invalid input' });
    expect(out[1]).toMatchObject({ id: '2', correct: true });
  });
});

describe('rewardkit verify ifeval', () => {
  test('should read IFEval rows and print strict and loose results per instruction', async () => {
    const row = {
      key: 1000,
      prompt: 'Write two sentences about the sea without commas.',
      instruction_id_list: ['punctuation:no_comma', 'change_case:english_lowercase'],
      kwargs: [{}, {}],
      response: 'The sea is wide and blue. It sings at night.',
    };
    const run = await runCli(['verify', 'ifeval', '--input', '-'], { stdin: JSON.stringify(row) });
    expect(run.code).toBe(0);
    expect(lines(run.stdout)[0]).toMatchObject({ id: '1000', strict: [true, false], loose: [true, false] });
    expect(run.stderr).toMatch(/prompt_strict/);
  });
});

describe('rewardkit verify ifeval, bad rows', () => {
  test('should record an unknown instruction as a failed row, not a false', async () => {
    const good = {
      key: 1,
      prompt: 'p',
      instruction_id_list: ['punctuation:no_comma'],
      kwargs: [{}],
      response: 'no commas',
    };
    const bad = { ...good, key: 2, instruction_id_list: ['keywords:nonexistent'] };
    const run = await runCli(['verify', 'ifeval', '--input', '-'], {
      stdin: `${JSON.stringify(bad)}\n${JSON.stringify(good)}\n`,
    });
    expect(run.code).toBe(3);
    const out = lines(run.stdout);
    expect(out[0]).toMatchObject({ id: '2' });
    expect(String(out[0]?.error)).toMatch(/unknown IFEval instruction "keywords:nonexistent"/);
    expect(out[1]).toMatchObject({ id: '1', strict: [true], loose: [true] });
  });
});

describe('rewardkit verify code', () => {
  test('should run JavaScript rows in the sandbox and report tests passed', async () => {
    const row = {
      id: 'js-1',
      language: 'javascript',
      response:
        '```javascript\nconst [a, b] = input.trim().split(" ").map(Number);\nconsole.log(a + b);\n```',
      tests: [
        { kind: 'stdio', stdin: '1 2\n', expected_stdout: '3\n' },
        { kind: 'stdio', stdin: '2 2\n', expected_stdout: '5\n' },
      ],
    };
    const run = await runCli(['verify', 'code', '--input', '-'], { stdin: JSON.stringify(row) });
    expect(run.code).toBe(0);
    expect(lines(run.stdout)[0]).toMatchObject({ id: 'js-1', passed: 1, total: 2, score: 0.5 });
  });

  test('should fail a rigged valueOf strictly, and pass it only with --no-strict', async () => {
    const row = {
      id: 'rigged',
      response: '```javascript\nfunction add() { return { valueOf: () => 3 }; }\n```',
      tests: [{ kind: 'assert', code: 'if (add(1, 2) != 3) throw new Error("wrong")' }],
    };
    const strict = await runCli(['verify', 'code', '--input', '-'], { stdin: JSON.stringify(row) });
    expect(lines(strict.stdout)[0]).toMatchObject({ id: 'rigged', passed: 0, score: 0 });
    expect(lines(strict.stdout)[0]?.reason).toBe('0/1 tests passed; test 0: failed (Error: wrong)');
    const lenient = await runCli(['verify', 'code', '--no-strict', '--input', '-'], {
      stdin: JSON.stringify(row),
    });
    expect(lines(lenient.stdout)[0]).toMatchObject({ id: 'rigged', passed: 1, score: 1 });
  });
});

describe('rewardkit presets and spec', () => {
  test('should list presets and source kinds', async () => {
    const run = await runCli(['presets']);
    expect(run.code).toBe(0);
    for (const name of ['math', 'code', 'ifeval', 'reference', 'default'])
      expect(run.stdout).toMatch(new RegExp(`^${name} `, 'm'));
    expect(run.stdout).toMatch(/Source kinds:/);
  });

  test('should print a preset as YAML', async () => {
    const run = await runCli(['presets', 'math']);
    expect(run.stdout).toMatch(/kind: math/);
  });

  test('should validate a spec and print it resolved', async () => {
    const dir = tempDir();
    const spec = join(dir, 's.yaml');
    writeFileSync(spec, 'routes:\n  - data_source: gsm8k\n    spec: math\n');
    const run = await runCli(['spec', 'validate', spec]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).routes[0].spec.sources[0].kind).toBe('math');
  });
});

describe('rewardkit --help', () => {
  test.each([
    [[]],
    [['score']],
    [['verify']],
    [['verify', 'math']],
    [['verify', 'ifeval']],
    [['verify', 'code']],
    [['redteam']],
    [['audit']],
    [['calibrate']],
    [['judge', 'rubric']],
    [['runs']],
    [['runs', 'export']],
    [['rubrics', 'quality']],
    [['rubrics', 'evolve']],
    [['rubrics', 'export-pools']],
    [['rubrics', 'import-pools']],
  ])('should explain %j', async (args) => {
    const run = await runCli([...args, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: rewardkit/);
  });

  test('should document the exit codes at the top level', async () => {
    const run = await runCli(['--help']);
    expect(run.stdout).toMatch(/Exit codes: 0 done/);
  });

  test('should end quietly when the reader closes the pipe early (| head)', async () => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist/cli/main.js'), '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // Close our end before the CLI writes, as `head -0` would.
    child.stdout.destroy();
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE/);
    expect(code).toBe(0);
  });
});
