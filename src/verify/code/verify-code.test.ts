import { describe, expect, test } from 'vitest';
import { createCodeSandbox } from './code-sandbox.js';
import { sameOutput } from './code-test.js';
import { extractCode } from './extract-code.js';
import { verifyCode } from './verify-code.js';

describe('extractCode', () => {
  test.each([
    ['```python\nprint(1)\n```', undefined, 'print(1)\n', 'python'],
    ['a\n```py\nx=1\n```\nb\n```python\nx=2\n```', undefined, 'x=2\n', 'python'],
    ['```\nplain\n```', undefined, 'plain\n', undefined],
    ['```js\nconsole.log(1)\n```\n```python\nprint(1)\n```', 'javascript', 'console.log(1)\n', 'javascript'],
    ['```javascript\nlet x\n```', 'python', null, null],
    ['no code here', undefined, null, null],
  ] as const)('%j (%s)', (response, language, code, detected) => {
    const r = extractCode(response, language);
    expect(r?.code ?? null).toBe(code);
    if (r) expect(r.language).toBe(detected);
  });
});

describe('sameOutput', () => {
  test.each([
    ['3\n', '3', true],
    ['3  \n\n', '3', true],
    ['a \r\nb', 'a\nb', true],
    ['3', '4', false],
    [' 3', '3', false],
  ])('%j vs %j: %s', (a, b, same) => {
    expect(sameOutput(a, b)).toBe(same);
  });
});

describe('verifyCode', () => {
  const sandbox = createCodeSandbox();
  const tests = [
    { kind: 'stdio' as const, stdin: '2', expected_stdout: '4' },
    { kind: 'stdio' as const, stdin: '3', expected_stdout: '9' },
  ];

  test('should score the fraction of tests passed, with the first failure as the reason', async () => {
    const r = await verifyCode(
      sandbox,
      '```javascript\nconst n = Number(input); console.log(n === 2 ? 4 : 0);\n```',
      tests,
    );
    expect(r).toMatchObject({ score: 0.5, passed: 1, total: 2, language: 'javascript' });
    expect(r.reason).toBe('1/2 tests passed; test 1: failed (stdout differs from the expected output)');
  });

  test('should score all-or-nothing when asked', async () => {
    const r = await verifyCode(sandbox, '```js\nconsole.log(Number(input) === 2 ? 4 : 0)\n```', tests, {
      scoring: 'all',
    });
    expect(r.score).toBe(0);
  });

  test('should run a response with no fence as the program, as verl reads bare code', async () => {
    const bare = await verifyCode(sandbox, 'const n = Number(input);\nconsole.log(n * n);\n', tests, {
      language: 'javascript',
    });
    expect(bare).toMatchObject({ score: 1, passed: 2, total: 2 });
    expect(bare.reason).toBe('no fenced code block: the whole response ran as the program; 2/2 tests passed');
    const prose = await verifyCode(sandbox, 'I would square the number.', tests, { language: 'javascript' });
    expect(prose).toMatchObject({ score: 0, passed: 0, total: 2 });
    expect(prose.reason).toMatch(
      /^no fenced code block: the whole response ran as the program; 0\/2 tests passed/,
    );
  });

  test('should score 0 with a reason when every fence is in another language', async () => {
    const r = await verifyCode(sandbox, '```python\nprint(int(input()) ** 2)\n```', tests, {
      language: 'javascript',
    });
    expect(r).toMatchObject({
      score: 0,
      passed: 0,
      total: 2,
      reason: 'no fenced javascript code block in the response',
    });
  });

  test('should throw when there are no tests', async () => {
    await expect(verifyCode(sandbox, '```js\n1\n```', [])).rejects.toThrow('no tests to run');
  });
});
