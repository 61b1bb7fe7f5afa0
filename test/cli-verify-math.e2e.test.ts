import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';

describe('rewardkit verify math', () => {
  test('--explain shows the candidates, normalized forms and the deciding comparison; status per row', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    const rows = [
      { id: 'anchor', reference: '34', response: 'Final Answer: The largest $n$ is 34.' },
      { id: 'enumeration', reference: '4', response: 'It is \\boxed{3} or \\boxed{4}.' },
      { id: 'undecided', reference: '\\sqrt{-x}', response: '\\boxed{\\sqrt{x}}' },
      { id: 'digit', reference: '2', response: 'The ratio is $\\frac{1+\\sqrt{5}}{2}$' },
    ];
    writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const run = await runCli(['verify', 'math', '-i', input, '-o', out, '--explain']);
    expect(run.code).toBe(0);
    const got = readJsonl(out);
    expect(got.map((r) => [r.id, r.status, r.rule])).toEqual([
      ['anchor', 'correct', 'anchor'],
      ['enumeration', 'incorrect', 'boxed'],
      ['undecided', 'undecided', 'boxed'],
      ['digit', 'incorrect', 'math_span'],
    ]);
    expect(got[0]?.explanation).toMatchObject({
      candidates: [
        { rule: 'anchor', text: '34' },
        { rule: 'math_span', text: 'n' },
        { rule: 'last_number', text: '34' },
      ],
      comparisons: [{ reference: '34', equal: true, method: 'numeric' }],
    });
    expect(got[1]?.reason).toMatch(/2 distinct boxed answers/);
    expect(got[2]?.reason).toMatch(/could not decide/);
    expect(got[3]?.explanation).toMatchObject({
      comparisons: [{ normalized: { answer: '\\frac{1+\\sqrt{5}}{2}', reference: '2' }, equal: false }],
    });
  });

  test('--explain names the rule that read a plain-text expression, a marker in another language and an option picked in prose', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    const rows = [
      { id: 'plain', reference: '5', response: 'I get 2 + sqrt(5)' },
      { id: 'zh', reference: '18', response: '所以 9 * 2 = 18。答案是 18。' },
      { id: 'choice', reference: 'A', response: 'It has to be A, not B or D.' },
      { id: 'expression', reference: 'B', response: '\\mathrm{B}\\cdot 3' },
    ];
    writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const run = await runCli(['verify', 'math', '-i', input, '-o', out, '--explain']);
    expect(run.code).toBe(0);
    const got = readJsonl(out);
    expect(got.map((r) => [r.id, r.status, r.rule, r.extracted])).toEqual([
      ['plain', 'incorrect', 'last_number', '2 + sqrt(5)'],
      ['zh', 'correct', 'anchor', '18'],
      ['choice', 'correct', 'choice', 'A'],
      ['expression', 'incorrect', 'bare_expression', '\\mathrm{B}\\cdot 3'],
    ]);
    expect(got[1]?.explanation).toMatchObject({
      candidates: [
        { rule: 'anchor', text: '18' },
        { rule: 'last_number', text: '18' },
      ],
    });
  });

  test('the options change the verdicts they name', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(
      input,
      `${[
        { id: 'tol', reference: '33.333', response: '\\boxed{33.33}' },
        { id: 'last', reference: '4', response: '\\boxed{3} \\boxed{4}' },
        { id: 'pct', reference: '0.5', response: '\\boxed{50\\%}' },
        { id: 'rel', reference: '[5, \\infty)', response: '\\boxed{x \\ge 5}' },
        { id: 'var', reference: 'x = 3', response: '\\boxed{y = 3}' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n')}\n`,
    );
    const strict = await runCli(['verify', 'math', '-i', input]);
    const loose = await runCli([
      'verify',
      'math',
      '-i',
      input,
      '--relative-tolerance',
      '1e-3',
      '--multiple-answers',
      'last',
    ]);
    const other = await runCli([
      'verify',
      'math',
      '-i',
      input,
      '--no-percent',
      '--relations',
      'relation',
      '--variables',
      'strict',
    ]);
    const verdicts = (stdout: string) =>
      Object.fromEntries(
        stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
          .map((r) => [r.id, r.correct]),
      );
    expect(verdicts(strict.stdout)).toEqual({ tol: false, last: false, pct: true, rel: true, var: true });
    expect(verdicts(loose.stdout)).toMatchObject({ tol: true, last: true });
    expect(verdicts(other.stdout)).toMatchObject({ pct: false, rel: false, var: false });
  });

  test('a bad option value is refused with the choices', async () => {
    const run = await runCli(['verify', 'math', '-i', '-', '--multiple-answers', 'any']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/Allowed choices are reject, all, last/);
  });
});
