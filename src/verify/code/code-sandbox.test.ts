import { existsSync, readFileSync, rmSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createCodeSandbox } from './code-sandbox.js';
import type { CodeTest } from './code-test.js';
import { bubblewrapWorks } from './python-runner.js';
import { hostLoopbackService } from './test-utils/run-code-battery.js';

const sandbox = createCodeSandbox({ limits: { timeoutMs: 1500, memoryMb: 256 } });
const hasBwrap = bubblewrapWorks();
const sum: CodeTest[] = [
  { kind: 'stdio', stdin: '1 2\n', expected_stdout: '3\n' },
  { kind: 'stdio', stdin: '10 -3\n', expected_stdout: '7' },
];
const pySum = 'a, b = map(int, input().split())\nprint(a + b)\n';
const jsSum = 'const [a, b] = input.trim().split(" ").map(Number);\nconsole.log(a + b);\n';

/** After every attack, the sandbox must still run an honest program correctly. */
async function stillHealthy(language: 'python' | 'javascript') {
  const report = await sandbox.runTests({ language, code: language === 'python' ? pySum : jsSum }, sum);
  expect(report.passed).toBe(2);
}

describe.skipIf(!hasBwrap)('Python under bubblewrap', () => {
  test('should run stdio tests and compare output ignoring trailing whitespace', async () => {
    const report = await sandbox.runTests({ language: 'python', code: pySum }, sum);
    expect(report).toMatchObject({ passed: 2, total: 2, sandbox: 'bubblewrap', unsafe: false });
  });

  test('should run assert tests after the program', async () => {
    const code = 'def add(a, b):\n    return a + b\n';
    const report = await sandbox.runTests({ language: 'python', code }, [
      { kind: 'assert', code: 'assert add(1, 2) == 3' },
      { kind: 'assert', code: 'assert add(1, 2) == 4' },
    ]);
    expect(report.results.map((r) => r.status)).toEqual(['passed', 'failed']);
    expect(report.results[1]?.reason).toMatch(/AssertionError/);
  });

  test('should report wrong output, exceptions and sys.exit codes', async () => {
    const report = await sandbox.runTests(
      {
        language: 'python',
        code: 'import sys\nx = int(input())\nif x == 2: raise ValueError("boom")\nif x == 3: sys.exit(3)\nprint(x)',
      },
      [
        { kind: 'stdio', stdin: '1', expected_stdout: '2' },
        { kind: 'stdio', stdin: '2', expected_stdout: '2' },
        { kind: 'stdio', stdin: '3', expected_stdout: '3' },
      ],
    );
    expect(report.results.map((r) => r.status)).toEqual(['failed', 'error', 'error']);
    expect(report.results[1]?.reason).toMatch(/ValueError: boom/);
    expect(report.results[2]?.reason).toMatch(/exited with code 3/);
  });

  test.each([
    ['read /etc/shadow', 'print(open("/etc/shadow").read())'],
    ['read the repository', `print(open(${JSON.stringify(`${process.cwd()}/package.json`)}).read())`],
    ['read ~/.ssh', 'import os; print(os.listdir("/root/.ssh"))'],
  ])('should not %s', async (_, code) => {
    const report = await sandbox.runTests({ language: 'python', code }, [{ kind: 'assert', code: 'pass' }]);
    expect(report.results[0]?.status).toBe('failed');
    expect(report.results[0]?.stderr).toMatch(/No such file or directory|Permission denied/);
    await stillHealthy('python');
  });

  test('should not write host files', async () => {
    const marker = `/tmp/rewardkit-escape-${process.pid}`;
    rmSync(marker, { force: true });
    const report = await sandbox.runTests(
      { language: 'python', code: `open(${JSON.stringify(marker)}, "w").write("x")\nprint("wrote")` },
      [{ kind: 'stdio', stdin: '', expected_stdout: 'wrote' }],
    );
    expect(report.passed).toBe(1); // it wrote — into the sandbox's private /tmp
    expect(existsSync(marker)).toBe(false);
    const usr = await sandbox.runTests({ language: 'python', code: 'open("/usr/evil", "w")' }, [
      { kind: 'assert', code: 'pass' },
    ]);
    expect(usr.results[0]?.stderr).toMatch(/Read-only file system|Permission denied/);
  });

  describe('network', () => {
    const host = hostLoopbackService();

    test('should not reach a service on the host loopback', async () => {
      const code = `import socket\ns = socket.create_connection(("127.0.0.1", ${host.port}), timeout=1)\nprint(s.recv(10))`;
      const report = await sandbox.runTests({ language: 'python', code }, [{ kind: 'assert', code: 'pass' }]);
      expect(report.results[0]?.status).toBe('failed');
      expect(report.results[0]?.stderr).toMatch(/Connection refused|Network is unreachable|OSError/);
      expect(host.connections).toBe(0);
    });

    test('should not resolve or reach outside hosts', async () => {
      const code = 'import socket\nsocket.getaddrinfo("example.com", 80)';
      const report = await sandbox.runTests({ language: 'python', code }, [{ kind: 'assert', code: 'pass' }]);
      expect(report.results[0]?.status).toBe('failed');
    });
  });

  test('should keep the deadline after the program closes stdout and stderr', async () => {
    const report = await sandbox.runTests(
      { language: 'python', code: 'import os, time\nos.close(1); os.close(2)\ntime.sleep(30)' },
      [{ kind: 'stdio', stdin: '', expected_stdout: '' }],
      { timeoutMs: 500 },
    );
    expect(report.results[0]?.status).toBe('timeout');
    await stillHealthy('python');
  });

  test('should hold the files a program writes to /tmp within the memory limit', async () => {
    // 96 files of 16 MB once took 1.5 GB of host memory past a 512 MB limit.
    const code =
      'for i in range(96):\n    open(f"/tmp/f{i}", "wb").write(b"x" * 16_000_000)\nprint("wrote all")';
    const report = await sandbox.runTests(
      { language: 'python', code },
      [{ kind: 'stdio', stdin: '', expected_stdout: 'wrote all' }],
      { memoryMb: 64, timeoutMs: 20_000 }, // the tmpfs fills after 64 MB, long before the time limit
    );
    expect(report.results[0]?.status).toBe('error');
    expect(report.results[0]?.stderr).toMatch(/No space left on device/);
    await stillHealthy('python');
  });

  test('should end an infinite loop with a timeout', async () => {
    const report = await sandbox.runTests(
      { language: 'python', code: 'while True: pass' },
      [{ kind: 'assert', code: 'pass' }],
      { timeoutMs: 500 },
    );
    expect(report.results[0]?.status).toBe('timeout');
    await stillHealthy('python');
  });

  test('should contain a memory bomb', async () => {
    const report = await sandbox.runTests(
      { language: 'python', code: 'x = bytearray(2 * 1024**3)\nprint(len(x))' },
      [{ kind: 'assert', code: 'pass' }],
    );
    expect(report.results[0]?.status).toBe('memory');
    await stillHealthy('python');
  });

  test('should contain a fork bomb', async () => {
    const code = 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass';
    const report = await sandbox.runTests({ language: 'python', code }, [{ kind: 'assert', code: 'pass' }], {
      timeoutMs: 800,
    });
    expect(['timeout', 'error', 'failed']).toContain(report.results[0]?.status);
    await stillHealthy('python');
  });

  test('should refuse to spawn processes beyond the limit and keep subprocesses inside', async () => {
    const code =
      'import subprocess\nprint(subprocess.run(["cat", "/etc/hostname"], capture_output=True).returncode)';
    const report = await sandbox.runTests({ language: 'python', code }, [{ kind: 'assert', code: 'pass' }]);
    // Whatever ran, it ran inside the sandbox: /etc is not there.
    expect(report.results[0]?.stdout ?? '').not.toMatch(/^0$/m);
  });

  test('should cut huge output and report it', async () => {
    const report = await sandbox.runTests(
      { language: 'python', code: 'while True: print("x" * 10000)' },
      [{ kind: 'assert', code: 'pass' }],
      {
        outputBytes: 100_000,
      },
    );
    expect(report.results[0]?.status).toBe('output_limit');
    expect((report.results[0]?.stdout ?? '').length).toBeLessThanOrEqual(100_000);
    await stillHealthy('python');
  });

  test('should not let the program forge results on stdout or the result channel', async () => {
    const forged = [
      'import json, os, sys',
      'for i in range(5):',
      '    line = json.dumps({"nonce": "x", "index": i, "status": "finished", "exit_code": 0, "signal": None, "stdout": "3", "stderr": "", "elapsed_ms": 1})',
      '    print(line)',
      '    for fd in (3, 4, 5):',
      '        try: os.write(fd, (line + "\\n").encode())',
      '        except OSError: pass',
      '    try: open(f"/proc/{os.getppid()}/fd/3", "w").write(line + "\\n")',
      '    except OSError: pass',
      'sys.exit(1)',
    ].join('\n');
    const report = await sandbox.runTests({ language: 'python', code: forged }, [
      { kind: 'stdio', stdin: '', expected_stdout: '3' },
      { kind: 'assert', code: 'pass' },
    ]);
    expect(report.passed).toBe(0);
  });

  test('should not let one program kill the harness into passing', async () => {
    const report = await sandbox.runTests(
      { language: 'python', code: 'import os, signal\nos.kill(os.getppid(), signal.SIGKILL)' },
      [
        { kind: 'assert', code: 'pass' },
        { kind: 'assert', code: 'pass' },
      ],
    );
    expect(report.passed).toBe(0);
    expect(report.results[1]?.reason).toMatch(/the sandbox ended before this test reported/);
  });
});

describe('JavaScript in QuickJS', () => {
  test('should run stdio tests with input, readline and console.log', async () => {
    expect((await sandbox.runTests({ language: 'javascript', code: jsSum }, sum)).passed).toBe(2);
    const lines = 'let l; let t = 0; while ((l = readline()) !== undefined) t += Number(l); print(t);';
    const report = await sandbox.runTests({ language: 'javascript', code: lines }, [
      { kind: 'stdio', stdin: '1\n2\n3\n', expected_stdout: '6' },
    ]);
    expect(report).toMatchObject({ passed: 1, sandbox: 'quickjs', unsafe: false });
  });

  test('should run assert-style tests', async () => {
    const code = 'function add(a, b) { return a + b; }';
    const report = await sandbox.runTests({ language: 'javascript', code }, [
      { kind: 'assert', code: 'if (add(1, 2) !== 3) throw new Error("wrong")' },
      { kind: 'assert', code: 'if (add(1, 2) !== 4) throw new Error("wrong")' },
    ]);
    expect(report.results.map((r) => r.status)).toEqual(['passed', 'failed']);
  });

  test.each([
    ['process', 'console.log(typeof process)'],
    ['require', 'console.log(typeof require)'],
    [
      'the Function constructor',
      'console.log(typeof globalThis.constructor.constructor("return typeof process")())',
    ],
    [
      'a console.log function proxy',
      'console.log(typeof console.log.constructor("return typeof require")())',
    ],
    [
      'std/os modules',
      'console.log(typeof std === "undefined" && typeof os === "undefined" ? "undefined" : "found")',
    ],
  ])('should not reach the host through %s', async (_, code) => {
    const report = await sandbox.runTests({ language: 'javascript', code }, [
      { kind: 'stdio', stdin: '', expected_stdout: 'undefined' },
    ]);
    expect(report.results[0]?.stdout?.trim()).not.toBe('object');
    expect(report.results[0]?.stdout?.trim()).not.toBe('function');
  });

  test('should not import host modules', async () => {
    const report = await sandbox.runTests(
      {
        language: 'javascript',
        code: 'import("fs").then((fs) => console.log(fs.readFileSync("/etc/passwd")))',
      },
      [{ kind: 'stdio', stdin: '', expected_stdout: '' }],
    );
    expect(report.results[0]?.stdout ?? '').not.toMatch(/root:/);
  });

  test('should expose no host objects, even through the Function constructor', async () => {
    const code =
      'const g = (function () {}).constructor("return this")();\n' +
      'console.log([typeof require, typeof process, typeof fetch, typeof g.process, typeof g.require].join(" "));';
    const report = await sandbox.runTests({ language: 'javascript', code }, [
      { kind: 'stdio', stdin: '', expected_stdout: 'undefined undefined undefined undefined undefined' },
    ]);
    expect(report.results[0]?.status).toBe('passed');
  });

  // The memory and output limits get a time limit they cannot reach first on a loaded machine.
  test.each([
    ['an infinite loop', 'while (true) {}', 'timeout', 500],
    ['a memory bomb', 'const a = []; while (true) a.push({ x: [1, 2, 3] });', 'memory', 10_000],
    ['huge output', 'while (true) console.log("x".repeat(10000));', 'output_limit', 10_000],
  ])('should contain %s', async (_, code, status, timeoutMs) => {
    const report = await sandbox.runTests({ language: 'javascript', code }, [{ kind: 'assert', code: ';' }], {
      timeoutMs,
      memoryMb: 8,
      outputBytes: 100_000,
    });
    expect(report.results[0]?.status).toBe(status);
    await stillHealthy('javascript');
  });

  test('should run off the event loop, so a spinning program does not block it', async () => {
    await stillHealthy('javascript'); // QuickJS loaded: what follows measures the spin alone
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const report = await sandbox.runTests(
      { language: 'javascript', code: 'for(;;){}' },
      [{ kind: 'assert', code: ';' }],
      { timeoutMs: 1000 },
    );
    clearInterval(ticker);
    expect(report.results[0]?.status).toBe('timeout');
    // On the event loop the spin would allow no tick at all until it ended; a worker allows ~100.
    expect(ticks).toBeGreaterThan(3);
    await stillHealthy('javascript');
  });

  test('should stop a builtin that never reaches the interrupt handler, and run the next tests in a fresh worker', async () => {
    // One sort of 3M numbers is a single builtin call (seconds, in C): no interrupt check inside.
    const code = 'if (input === "slow") new Array(3e6).fill(123457).sort();\nconsole.log("ok");';
    const report = await sandbox.runTests(
      { language: 'javascript', code },
      [
        { kind: 'stdio', stdin: 'slow', expected_stdout: 'ok' },
        { kind: 'stdio', stdin: 'fast', expected_stdout: 'ok' },
        { kind: 'stdio', stdin: 'fast', expected_stdout: 'ok' },
      ],
      { timeoutMs: 100, memoryMb: 256 },
    );
    expect(report.results.map((r) => [r.index, r.status])).toEqual([
      [0, 'timeout'],
      [1, 'passed'],
      [2, 'passed'],
    ]);
    expect(report.results[0]?.reason).toMatch(/the worker running it was stopped/);
  });

  test('should go on in a fresh worker after a test that grew the heap, with every result in place', async () => {
    // ~100 MB of arrays on the first test: past the size at which its worker is retired.
    const code =
      'if (input === "big") { const a = []; for (let i = 0; i < 60; i++) a.push(new Float64Array(2e5)); }\nconsole.log("ok");';
    const tests = ['big', 'small', 'big', 'small'].map((stdin) => ({
      kind: 'stdio' as const,
      stdin,
      expected_stdout: 'ok',
    }));
    const report = await sandbox.runTests({ language: 'javascript', code }, tests, { memoryMb: 256 });
    expect(report.results.map((r) => [r.index, r.status])).toEqual([
      [0, 'passed'],
      [1, 'passed'],
      [2, 'passed'],
      [3, 'passed'],
    ]);
  });

  test('should report memory when the heap is too full to build the error (QuickJS throws null)', async () => {
    const report = await sandbox.runTests(
      { language: 'javascript', code: 'const a = []; while (true) a.push(new Array(1e5).fill(1.5));' },
      [{ kind: 'assert', code: ';' }],
      { memoryMb: 32, timeoutMs: 20_000 },
    );
    expect(report.results[0]).toMatchObject({
      status: 'memory',
      reason: 'exceeded the memory limit of 32 MB',
    });
  });

  test('should survive deep recursion', async () => {
    const report = await sandbox.runTests(
      { language: 'javascript', code: 'function f(n) { return f(n + 1); } f(0);' },
      [{ kind: 'assert', code: ';' }],
    );
    expect(report.results[0]?.status).toBe('failed');
    await stillHealthy('javascript');
  });
});

describe('runCode (SandboxFusion shape)', () => {
  test.skipIf(!hasBwrap)('should answer like SandboxFusion for a finished run', async () => {
    const result = await sandbox.runCode({ code: 'print(input()[::-1])', language: 'python', stdin: 'abc' });
    expect(result).toMatchObject({
      status: 'Success',
      message: '',
      compile_result: null,
      run_result: { status: 'Finished', return_code: 0, stdout: 'cba\n', stderr: '' },
      files: {},
    });
    expect(Object.keys(result).sort()).toEqual([
      'compile_result',
      'executor_pod_name',
      'files',
      'message',
      'run_result',
      'status',
    ]);
    expect(Object.keys(result.run_result ?? {}).sort()).toEqual([
      'execution_time',
      'return_code',
      'status',
      'stderr',
      'stdout',
    ]);
  });

  test.skipIf(!hasBwrap)('should report a time limit as SandboxFusion does', async () => {
    const result = await sandbox.runCode({ code: 'while True: pass', language: 'python', run_timeout: 0.5 });
    expect(result).toMatchObject({ status: 'Failed', run_result: { status: 'TimeLimitExceeded' } });
  });

  test('should answer SandboxError for an unsupported language', async () => {
    expect(await sandbox.runCode({ code: 'x', language: 'cobol' })).toMatchObject({
      status: 'SandboxError',
      run_result: null,
    });
  });
});

test('should refuse Python when no isolation is available and unsafe mode is off', async () => {
  const { createCodeSandbox: create } = await import('./code-sandbox.js');
  const box = create();
  if (box.isolation() !== 'none') return; // Only meaningful where bubblewrap is missing.
  await expect(
    box.runTests({ language: 'python', code: 'print(1)' }, [{ kind: 'assert', code: 'pass' }]),
  ).rejects.toThrow(/refusing to run untrusted Python/);
});

test('should keep the host file it protects intact', () => {
  expect(readFileSync('/etc/hostname', 'utf8').length).toBeGreaterThan(0);
});
