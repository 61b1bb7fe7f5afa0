import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { createCodeSandbox } from './code-sandbox.js';
import { LANGUAGE_RECIPES } from './run-code-languages.js';
import type { RunCodeRequest } from './sandbox-fusion.js';
import {
  b64,
  HOST_FILE,
  hasBwrap,
  hostLoopbackService,
  MARKER,
  present,
} from './test-utils/run-code-battery.js';

const sandbox = createCodeSandbox({ limits: { memoryMb: 256 } });
/** Debian's packages the docs list, where installed (.ci/run installs them). */
const PYTHON_PACKAGES = ['requests', 'numpy', 'pandas', 'sympy', 'scipy'];
const pythonPackagesHere =
  present('python') &&
  spawnSync('/usr/bin/python3', ['-c', `import ${PYTHON_PACKAGES.join(', ')}`], { timeout: 30_000 })
    .status === 0;
const lodashHere = existsSync('/usr/share/nodejs/lodash/package.json');
/** jest runs where node does and a jest install is found (rewardkit's development dependencies). */
const jestHere =
  present('jest') &&
  LANGUAGE_RECIPES.jest?.unavailable?.({ code: '', fileNames: [], memoryMb: 256 }) === undefined;
const run = (request: RunCodeRequest) => sandbox.runCode({ run_timeout: 10, ...request });
const decoded = (files: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name, Buffer.from(text, 'base64').toString()]),
  );

/** A program per language that serves on `localhost`, calls itself by that name and prints the answer. */
const LOCALHOST: ReadonlyArray<readonly [string, string]> = [
  [
    'python',
    `import http.server, threading, urllib.request
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b'pong')
    def log_message(self, *a): pass
s = http.server.HTTPServer(('localhost', 0), H)
threading.Thread(target=s.serve_forever, daemon=True).start()
print(urllib.request.urlopen('http://localhost:%d/' % s.server_address[1]).read().decode())`,
  ],
  [
    'nodejs',
    `const http = require('http');
const s = http.createServer((q, r) => r.end('pong'));
s.listen(0, 'localhost', () => http.get({ host: 'localhost', port: s.address().port }, (r) => {
  let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => { console.log(d); s.close(); });
}));`,
  ],
  [
    'bash',
    `python3 -c "
import socket
s = socket.socket(); s.bind(('localhost', 0)); s.listen(1); print(s.getsockname()[1], flush=True)
c, _ = s.accept(); c.sendall(b'pong\\n'); c.close()" > port &
while [ ! -s port ]; do sleep 0.05; done
exec 3<>/dev/tcp/localhost/$(cat port)
head -1 <&3`,
  ],
];

describe.skipIf(!hasBwrap)('/run_code environment: localhost', () => {
  test.each(LOCALHOST.filter(([language]) => present(language)))(
    'should let a %s program serve on localhost and call itself by name',
    async (language, code) => {
      const result = await run({ code, language });
      expect(result, result.run_result?.stderr ?? result.message).toMatchObject({
        status: 'Success',
        run_result: { stdout: 'pong\n' },
      });
    },
  );

  test('should show an /etc/hosts that names localhost and no host machine', async () => {
    const result = await run({ code: 'cat /etc/hosts', language: 'bash' });
    expect(result.run_result?.stdout).toBe(
      '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n',
    );
  });
});

describe.skipIf(!pythonPackagesHere)('/run_code environment: Python packages', () => {
  test('should import requests, numpy, pandas, sympy and scipy from Debian', async () => {
    const result = await run({
      code: `import requests, numpy, pandas, sympy, scipy.optimize
print(int(numpy.linalg.det(numpy.eye(3))), pandas.DataFrame({'a': [1, 2]}).a.sum(), sympy.factor('x**2-1'), round(scipy.optimize.brentq(lambda x: x - 1, 0, 2)))`,
      language: 'python',
      run_timeout: 30,
    });
    expect(result.run_result?.stderr).toBe('');
    expect(result.run_result?.stdout).toBe('1 3 (x - 1)*(x + 1) 1\n');
  });
});

describe.skipIf(!hasBwrap)('/run_code environment: files outside the working directory', () => {
  test("should fetch relative and absolute paths as upstream's test_python_fetch_files does", async () => {
    const result = await run({
      code: 'open("a.txt", "w").write("secret"); open("/mnt/b", "w").write("sauce"); open("/tmp/c", "w").write("tmp")',
      language: 'python',
      fetch_files: ['a.txt', '/mnt/b', '/tmp/c', 'sub/../a.txt', 'missing.txt'],
    });
    expect(result.status).toBe('Success');
    expect(decoded(result.files)).toEqual({
      'a.txt': 'secret',
      '/mnt/b': 'sauce',
      '/tmp/c': 'tmp',
      'sub/../a.txt': 'secret',
    });
  });

  test('should not fetch files the program could not write: bound host files, /proc, devices, symlinks to them', async () => {
    const result = await run({
      code: 'ln -s /etc/hosts hosts; ln -s /dev/zero zero; ln -s /usr/bin/python3 py',
      language: 'bash',
      fetch_files: [
        '/etc/hosts',
        '/proc/self/status',
        '/dev/zero',
        '/usr/bin/python3',
        'hosts',
        'zero',
        'py',
        '../etc/hosts',
      ],
    });
    expect(result.status).toBe('Success');
    expect(result.files).toEqual({});
    expect(result.message.split('\n')).toHaveLength(8);
  });

  test('should count files written anywhere in the sandbox against the memory limit', async () => {
    for (const folder of ['/mnt', '/dev/shm']) {
      const result = await run({
        code: `for i in 1 2 3 4; do head -c 60000000 /dev/zero > ${folder}/f$i || exit 7; done; echo ESCAPED`,
        language: 'bash',
        memory_limit_MB: 128,
      });
      expect(result.status, folder).toBe('Failed');
      expect(result.run_result?.stdout, folder).not.toContain('ESCAPED');
    }
  });

  test('should keep /dev read-only and /dev/shm usable (Python multiprocessing)', async () => {
    const result = await run({
      code: `import multiprocessing
try:
    open('/dev/evil', 'w'); print('ESCAPED')
except OSError:
    print('ro')
with multiprocessing.Pool(2) as p:
    print(p.map(abs, [-1, -2]))`,
      language: 'python',
      run_timeout: 20,
    });
    expect(result.run_result?.stdout).toBe('ro\n[1, 2]\n');
  });
});

/** upstream's sandbox/tests/runners/test_nodejs.py and test_typescript.py, each case as a row. */
const NODE_CASES: ReadonlyArray<
  readonly [string, string, Partial<RunCodeRequest>, Record<string, unknown>, RegExp | undefined]
> = [
  ['print', 'console.log(123)', {}, { status: 'Success', run_result: { stdout: '123\n' } }, undefined],
  [
    'stdin',
    `process.stdin.on('data', (input) => { const num = parseInt(input.toString()); console.log(num); process.exit(); });`,
    { stdin: '65535' },
    { status: 'Success', run_result: { status: 'Finished', stdout: '65535\n' } },
    undefined,
  ],
  [
    'humanevalx console.assert',
    'console.assert(1 === 2);',
    {},
    { status: 'Success', run_result: { status: 'Finished' } },
    /Assertion failed/,
  ],
];

const TIMEOUT = {
  nodejs: `const util = require('util');\nconst sleep = util.promisify(setTimeout);\n(async () => { await sleep(1000); })();`,
  typescript: `import util from 'util';\nconst sleep = util.promisify(setTimeout);\nasync function main() { await sleep(1000); }\nmain();`,
};
const ASSERTION = {
  nodejs: `const assert = require('assert');\nassert.strictEqual(1, 2, '1 !== 2');`,
  typescript: `import assert from "assert";\nassert.strictEqual(1, 2, '1 !== 2');`,
};
const LODASH = {
  nodejs: `const _ = require("lodash");\nconst assert = require('assert');\nassert(_.isEqual(1, 1));\nconsole.log('done');`,
  typescript: `import _ from "lodash";\nimport assert from "assert";\nassert(_.isEqual(1, 1));\nconsole.log('done');`,
};

for (const language of ['nodejs', 'typescript'] as const) {
  describe.skipIf(!present(language))(`/run_code ${language}: upstream's runner cases`, () => {
    test.each(NODE_CASES)(
      'should answer %s as upstream does',
      async (_name, code, extra, expected, stderr) => {
        const typed = language === 'typescript' ? code.replace('(input)', '(input: Buffer)') : code;
        const result = await run({ code: typed, language, ...extra });
        expect(result).toMatchObject(expected);
        if (stderr) expect(result.run_result?.stderr).toMatch(stderr);
      },
    );

    test('should end a sleep past run_timeout as TimeLimitExceeded (util default import in TypeScript)', async () => {
      const result = await run({ code: TIMEOUT[language], language, run_timeout: 0.3 });
      expect(result).toMatchObject({ status: 'Failed', run_result: { status: 'TimeLimitExceeded' } });
    });

    test('should fail an assert default import with AssertionError', async () => {
      const result = await run({ code: ASSERTION[language], language });
      expect(result).toMatchObject({ status: 'Failed', run_result: { status: 'Finished', return_code: 1 } });
      expect(result.run_result?.stderr).toContain('AssertionError');
    });

    test.skipIf(!lodashHere)("should require Debian's lodash", async () => {
      const result = await run({ code: LODASH[language], language });
      expect(result, result.run_result?.stderr ?? '').toMatchObject({
        status: 'Success',
        run_result: { stdout: 'done\n' },
      });
    });
  });
}

describe.skipIf(!present('nodejs'))('/run_code with a Node modules folder offered by the server', () => {
  const folder = mkdtempSync(join(tmpdir(), 'rk-node-modules-'));
  // The sandbox runs as nobody when the tests run as root.
  chmodSync(folder, 0o755);
  mkdirSync(join(folder, 'node_modules', 'greet'), { recursive: true });
  writeFileSync(join(folder, 'node_modules', 'greet', 'index.js'), "module.exports = (n) => 'hello ' + n;\n");
  const modules = realpathSync(join(folder, 'node_modules'));
  const offered = createCodeSandbox({ limits: { memoryMb: 256 }, nodeModules: [modules] });
  afterAll(async () => {
    await offered.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('should require a module from it, read-only', async () => {
    const result = await offered.runCode({
      code: `console.log(require('greet')('sandbox'));
try { require('fs').writeFileSync(${JSON.stringify(`${modules}/greet/evil.js`)}, 'x'); console.log('ESCAPED'); } catch { console.log('read-only'); }`,
      language: 'nodejs',
    });
    expect(result.run_result?.stdout, result.message).toBe('hello sandbox\nread-only\n');
  });
});

const MIN_SUB_ARRAY = (body: string) => `import { describe, expect, test } from '@jest/globals';

function MinSubArrayLen(target: number, nums: number[]): number {
${body}
}

describe('MinSubArrayLen', () => {
  test('finds minimum length of a subarray with sum >= target', () => {
    expect(MinSubArrayLen(7, [2, 3, 1, 2, 4, 3])).toBe(2);
    expect(MinSubArrayLen(15, [1, 2, 3, 4, 5])).toBe(5);
    expect(MinSubArrayLen(4, [1, 4, 4])).toBe(1);
    expect(MinSubArrayLen(11, [1, 1, 1, 1, 1, 1, 1, 1])).toBe(0);
  });
  test('returns 0 if no such subarray exists', () => {
    expect(MinSubArrayLen(100, [1, 2, 3, 4, 5])).toBe(0);
    expect(MinSubArrayLen(7, [2, 1])).toBe(0);
  });
  test('works with single element array', () => {
    expect(MinSubArrayLen(3, [3])).toBe(1);
    expect(MinSubArrayLen(3, [1])).toBe(0);
  });
});
`;
const SLIDING_WINDOW = `  let minLength = Infinity;
  let sum = 0;
  let start = 0;
  for (let end = 0; end < nums.length; end++) {
    sum += nums[end];
    while (sum >= target) {
      minLength = Math.min(minLength, end - start + 1);
      sum -= nums[start];
      start++;
    }
  }
  return minLength === Infinity ? 0 : minLength;`;

/** upstream's sandbox/tests/datasets/test_utils.py JEST_CODE: 11 tests, 2 of them wrong. */
const CALCULATOR = `describe('Calculator Tests', () => {
  describe('Addition', () => {
    test('adds 1 + 2 to equal 3', () => { expect(1 + 2).toBe(3); });
    test('adds negative numbers correctly', () => { expect(-1 + (-2)).toBe(-3); });
    test('adding zero returns same number', () => { expect(5 + 0).toBe(5); });
  });
  describe('Multiplication', () => {
    test('multiplies 3 * 4 to equal 12', () => { expect(3 * 4).toBe(12); });
    test('multiplying by zero equals zero', () => { expect(123 * 0).toBe(0); });
    test('multiplying negative numbers', () => { expect(-2 * -3).toBe(6); expect(-2 * 3).toBe(-6); });
  });
  describe('Division', () => {
    test('divides 10 / 2 to equal 5', () => { expect(10 / 2).toBe(235); });
    test('throws error when dividing by zero', () => {
      expect(() => { if (2 / 0 === Infinity) throw new Error('Division by zero'); }).toThrow('Division by zero');
    });
    test('division result is incorrect', () => { expect(5 / 2).not.toBe(3); });
  });
  describe('String operations', () => {
    test('concatenates strings correctly', () => { expect('Hello' + ' ' + 'World').toBe('Hello Worsld'); });
    test('string length is incorrect', () => { expect('test'.length).not.toBe(5); });
  });
});
`;

describe.skipIf(!jestHere)("/run_code jest: upstream's runner cases", () => {
  test('should pass a right TypeScript solution and fail a wrong one with exit code 1', async () => {
    const [pass, fail] = await Promise.all([
      run({ code: MIN_SUB_ARRAY(SLIDING_WINDOW), language: 'jest', run_timeout: 30 }),
      run({ code: MIN_SUB_ARRAY('  return 0;'), language: 'jest', run_timeout: 30 }),
    ]);
    expect(pass, pass.run_result?.stderr ?? pass.message).toMatchObject({
      status: 'Success',
      run_result: { status: 'Finished', return_code: 0 },
    });
    expect(pass.run_result?.stderr).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(fail).toMatchObject({ status: 'Failed', run_result: { status: 'Finished', return_code: 1 } });
    expect(fail.run_result?.stderr).toMatch(/Tests:\s+2 failed, 1 passed, 3 total/);
  });

  test("should write jest-report.json as upstream's jest-json-reporter does", async () => {
    const result = await run({
      code: CALCULATOR,
      language: 'jest',
      run_timeout: 30,
      fetch_files: ['jest-report.json'],
    });
    const report = JSON.parse(decoded(result.files)['jest-report.json'] ?? '{}');
    const cases = report.testResults.flatMap(
      (suite: { testResults: { status: string }[] }) => suite.testResults,
    );
    expect(cases.filter((c: { status: string }) => c.status === 'passed')).toHaveLength(9);
    expect(cases.filter((c: { status: string }) => c.status === 'failed')).toHaveLength(2);
    expect(result.run_result?.return_code).toBe(1);
  });

  test.skipIf(!lodashHere)("should find Debian's lodash from a test file", async () => {
    const result = await run({
      code: "import _ from 'lodash';\ntest('lodash', () => expect(_.sum([1, 2])).toBe(3));",
      language: 'jest',
      run_timeout: 30,
    });
    expect(result, result.run_result?.stderr ?? result.message).toMatchObject({ status: 'Success' });
  });

  test('should run the request files beside the test, and a syntax error fails the suite', async () => {
    const [helper, broken] = await Promise.all([
      run({
        code: "import { twice } from './lib/twice';\ntest('twice', () => expect(twice(2)).toBe(4));",
        language: 'jest',
        files: { 'lib/twice.ts': b64('export const twice = (n: number): number => n * 2;\n') },
        run_timeout: 30,
      }),
      run({ code: 'test("x", () => { expect(1).toBe(1) ', language: 'jest', run_timeout: 30 }),
    ]);
    expect(helper, helper.run_result?.stderr ?? helper.message).toMatchObject({ status: 'Success' });
    expect(broken).toMatchObject({ status: 'Failed', run_result: { return_code: 1 } });
  });
});

describe('the jest recipe without a jest install', () => {
  const program = { code: '', fileNames: [], memoryMb: 256, nodeModules: [] };

  test("should say how to provide jest when neither the server's folder nor rewardkit has it", async () => {
    vi.resetModules();
    vi.doMock('node:module', async (original) => ({
      ...(await original<typeof import('node:module')>()),
      createRequire: () => ({
        resolve: (name: string) => {
          throw new Error(`Cannot find module '${name}'`);
        },
      }),
    }));
    try {
      const { NODE_RECIPES } = await import('./run-code-recipes-node.js');
      expect(NODE_RECIPES.jest?.unavailable?.(program)).toBe(
        'language "jest" needs jest on the server: install it in a folder (npm i jest typescript) and start the server with --sandbox-node-path <folder>/node_modules (or REWARDKIT_SANDBOX_NODE_PATH)',
      );
    } finally {
      vi.doUnmock('node:module');
      vi.resetModules();
    }
  });

  test("should take jest from the server's folder before rewardkit's own", async () => {
    const { NODE_RECIPES } = await import('./run-code-recipes-node.js');
    const folder = mkdtempSync(join(tmpdir(), 'rk-jest-'));
    try {
      mkdirSync(join(folder, 'jest', 'bin'), { recursive: true });
      writeFileSync(join(folder, 'jest', 'package.json'), '{"name":"jest"}');
      const offered = { ...program, nodeModules: [realpathSync(folder)] };
      expect(NODE_RECIPES.jest?.run(offered)).toContain(join(realpathSync(folder), 'jest', 'bin', 'jest.js'));
      expect(NODE_RECIPES.jest?.binds?.(offered)[0]).toBe(realpathSync(folder));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/**
 * The escape battery's attacks as jest tests: its stdin/exit-code contract does not fit a test
 * runner (jest owns the exit code and stderr), so each attack is a test that passes only when blocked.
 */
describe.skipIf(!jestHere)('/run_code jest under bubblewrap', () => {
  const host = hostLoopbackService();

  test('should block host files, host writes and the host loopback, and end a spinning test at run_timeout', async () => {
    rmSync(MARKER, { force: true });
    const attacks = `import * as fs from 'fs';
import * as net from 'net';
test('host file', () => expect(() => fs.readFileSync(${JSON.stringify(HOST_FILE)})).toThrow());
test('host write', () => { expect(() => fs.writeFileSync('/usr/rewardkit-evil', 'x')).toThrow(); fs.writeFileSync(${JSON.stringify(MARKER)}, 'x'); });
test('host loopback', () => new Promise<void>((resolve, reject) => {
  const s = net.connect(${host.port}, '127.0.0.1');
  s.on('connect', () => reject(new Error('ESCAPED')));
  s.on('error', () => resolve());
}));`;
    const [blocked, spin] = await Promise.all([
      run({ code: attacks, language: 'jest', run_timeout: 30 }),
      run({ code: "test('spin', () => { for (;;) {} });", language: 'jest', run_timeout: 3 }),
    ]);
    expect(blocked, blocked.run_result?.stderr ?? blocked.message).toMatchObject({ status: 'Success' });
    expect(blocked.run_result?.stderr).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(existsSync(MARKER)).toBe(false);
    expect(host.connections).toBe(0);
    expect(spin).toMatchObject({ status: 'Failed', run_result: { status: 'TimeLimitExceeded' } });
  });
});
