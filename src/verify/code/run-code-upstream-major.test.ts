import { afterAll, describe, expect, test } from 'vitest';
import { createCodeSandbox } from './code-sandbox.js';
import type { RunCodeRequest } from './sandbox-fusion.js';
import { b64, present } from './test-utils/run-code-battery.js';

/**
 * SandboxFusion's own runner tests for the languages `/run_code` ran first (upstream's
 * `sandbox/tests/runners/test_{python,cpp,go,bash,rust,pytest}.py`), rewritten: each upstream
 * assertion is one here. Upstream's `test_python_fetch_files` is in run-code-environment.test.ts;
 * the escape batteries are in run-code.test.ts.
 */
const sandbox = createCodeSandbox({ limits: { memoryMb: 512 } });
afterAll(() => sandbox.close());
const run = (language: string, code: string, extra: Partial<RunCodeRequest> = {}) =>
  sandbox.runCode({ code, language, ...extra });
const SECRET = { 'dir1/dir2/dir3/secret_flag': b64('"hello, this is a test"') };

describe.skipIf(!present('python'))('upstream test_python.py', () => {
  test('print, assertion error, syntax error, a file read, stdin', async () => {
    const [printed, assertion, syntax, read, stdin] = await Promise.all([
      run('python', 'print(123)', { run_timeout: 5 }),
      run('python', 'assert 1 == 2', { run_timeout: 5 }),
      run('python', 'int a = 1', { run_timeout: 5 }),
      run('python', 'print(open("dir1/dir2/dir3/secret_flag").read())', { run_timeout: 5, files: SECRET }),
      run('python', 'print(int(input()))', { run_timeout: 5, stdin: '65535' }),
    ]);
    expect(printed.status).toBe('Success');
    expect(printed.run_result?.stdout?.trim()).toBe('123');
    expect(assertion).toMatchObject({ status: 'Failed', run_result: { status: 'Finished' } });
    expect(assertion.run_result?.stderr).toContain('AssertionError');
    expect(syntax).toMatchObject({ status: 'Failed', run_result: { status: 'Finished' } });
    expect(syntax.run_result?.stderr).toContain('SyntaxError: invalid syntax');
    expect(read).toMatchObject({ status: 'Success', run_result: { status: 'Finished' } });
    expect(read.run_result?.stdout).toContain('hello, this is a test');
    expect(stdin).toMatchObject({ status: 'Success', run_result: { status: 'Finished', stdout: '65535\n' } });
  });

  test('a sleep past run_timeout is TimeLimitExceeded', async () => {
    expect(await run('python', 'import time; time.sleep(0.2)', { run_timeout: 0.1 })).toMatchObject({
      status: 'Failed',
      run_result: { status: 'TimeLimitExceeded' },
    });
  });
});

const CPP_PTHREAD = `#include <condition_variable>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <thread>
#include <type_traits>
template <typename T> class Queue {
 public:
  template <class U> void push(U&& v) { std::unique_lock<std::mutex> l(m_); q_.push(std::forward<U>(v)); cv_.notify_one(); }
  std::optional<T> pop() { std::unique_lock<std::mutex> l(m_); cv_.wait(l, [this] { return !q_.empty(); }); T v = std::move(q_.front()); q_.pop(); return v; }
 private:
  std::mutex m_; std::condition_variable cv_; std::queue<T> q_;
};
int main() {
  Queue<std::unique_ptr<int>> q;
  std::thread p1([&] { for (int i = 0; i < 3; ++i) q.push(std::make_unique<int>(i)); });
  std::thread p2([&] { for (int i = 0; i < 3; ++i) q.push(std::make_unique<int>(i)); });
  int sum = 0;
  std::thread c([&] { for (int i = 0; i < 6; ++i) sum += **q.pop(); });
  p1.join(); p2.join(); c.join();
  std::cout << sum << std::endl;
}
`;

describe.skipIf(!present('cpp'))('upstream test_cpp.py', () => {
  test('print, assertion, compile error, stdin, threads', async () => {
    const [printed, assertion, broken, stdin, threads] = await Promise.all([
      run('cpp', '#include <iostream>\nint main() { std::cout << "123" << std::endl; return 0; }', {
        run_timeout: 5,
      }),
      run('cpp', '#include <cassert>\nint main() { assert(1 == 2); return 0; }', { run_timeout: 5 }),
      run('cpp', 'int main() {\n  object i = ?;\n  return 0;\n}'),
      run('cpp', '#include <iostream>\nint main() { int n; std::cin >> n; std::cout << n << std::endl; }', {
        run_timeout: 5,
        stdin: '65535',
      }),
      run('cpp', CPP_PTHREAD, { run_timeout: 5 }),
    ]);
    expect(printed).toMatchObject({ status: 'Success', compile_result: { status: 'Finished' } });
    expect(printed.run_result?.stdout?.trim()).toBe('123');
    expect(assertion).toMatchObject({ status: 'Failed', run_result: { status: 'Finished' } });
    expect(assertion.run_result?.stderr).toContain('Assertion');
    expect(broken).toMatchObject({
      status: 'Failed',
      compile_result: { status: 'Finished' },
      run_result: null,
    });
    expect(broken.compile_result?.return_code).not.toBe(0);
    expect(stdin).toMatchObject({ status: 'Success', run_result: { status: 'Finished', stdout: '65535\n' } });
    expect(threads).toMatchObject({ status: 'Success', run_result: { status: 'Finished', stdout: '6\n' } });
  });

  test('a sleep past run_timeout is TimeLimitExceeded', async () => {
    const code =
      '#include <chrono>\n#include <thread>\nint main() { std::this_thread::sleep_for(std::chrono::milliseconds(1000)); }';
    expect(await run('cpp', code, { run_timeout: 0.5, compile_timeout: 10 })).toMatchObject({
      status: 'Failed',
      run_result: { status: 'TimeLimitExceeded' },
    });
  });

  test("links OpenSSL as upstream's probed -lcrypto -lssl do, where the library is installed", async () => {
    const code =
      '#include <openssl/sha.h>\n#include <cstdio>\nint main() { unsigned char d[SHA256_DIGEST_LENGTH]; SHA256((const unsigned char*)"abc", 3, d); printf("%02x%02x\\n", d[0], d[1]); }';
    const result = await run('cpp', code, { run_timeout: 5 });
    if (result.compile_result?.stderr?.includes('openssl/sha.h: No such file')) return; // no libssl-dev here
    expect(result).toMatchObject({ status: 'Success', run_result: { stdout: 'ba78\n' } });
  });
});

describe.skipIf(!present('go'))('upstream test_go.py', () => {
  test('print, stdin, and a sleep past run_timeout', async () => {
    const [printed, stdin, slow] = await Promise.all([
      run('go', 'package main\nimport (\n  "fmt"\n)\nfunc main() {\n  fmt.Println("123")\n}', {
        compile_timeout: 30,
      }),
      run(
        'go',
        'package main\nimport "fmt"\nfunc main() {\n  var n int\n  fmt.Scan(&n)\n  fmt.Println(n)\n}',
        {
          run_timeout: 5,
          compile_timeout: 30,
          stdin: '65535',
        },
      ),
      // Upstream allows a 1 s compile; a cold Go build cache takes longer on a loaded machine.
      run('go', 'package main\nimport "time"\nfunc main() {\n  time.Sleep(200 * time.Millisecond)\n}', {
        run_timeout: 0.19,
        compile_timeout: 30,
      }),
    ]);
    expect(printed).toMatchObject({ status: 'Success', compile_result: { status: 'Finished' } });
    expect(printed.run_result?.stdout?.trim()).toBe('123');
    expect(stdin).toMatchObject({ status: 'Success', run_result: { status: 'Finished', stdout: '65535\n' } });
    expect(slow).toMatchObject({ status: 'Failed', run_result: { status: 'TimeLimitExceeded' } });
  });
});

describe.skipIf(!present('bash'))('upstream test_bash.py', () => {
  test('echo, a sleep past run_timeout, a false condition, a syntax error, a file read, stdin', async () => {
    const [echo, slow, falseTest, syntax, read, stdin] = await Promise.all([
      run('bash', 'echo "Hello World"', { run_timeout: 5 }),
      run('bash', 'sleep 0.2', { run_timeout: 0.1 }),
      run('bash', 'test 1 -eq 2', { run_timeout: 5 }),
      run('bash', 'if [', { run_timeout: 5 }),
      run('bash', 'cat dir1/dir2/dir3/secret_flag', { run_timeout: 5, files: SECRET }),
      run('bash', '\n    read input\n    echo $input\n    ', { run_timeout: 5, stdin: '65535' }),
    ]);
    expect(echo.status).toBe('Success');
    expect(echo.run_result?.stdout?.trim()).toBe('Hello World');
    expect(slow).toMatchObject({ status: 'Failed', run_result: { status: 'TimeLimitExceeded' } });
    expect(falseTest).toMatchObject({ status: 'Failed', run_result: { status: 'Finished' } });
    expect(syntax).toMatchObject({ status: 'Failed', run_result: { status: 'Finished' } });
    expect(syntax.run_result?.stderr).toContain('syntax error');
    expect(read).toMatchObject({ status: 'Success', run_result: { status: 'Finished' } });
    expect(read.run_result?.stdout).toContain('hello, this is a test');
    expect(stdin).toMatchObject({ status: 'Success', run_result: { status: 'Finished', stdout: '65535\n' } });
  });
});

describe.skipIf(!present('rust'))('upstream test_rust.py', () => {
  test('print, assertion, compile error, stdin, and a sleep past run_timeout', async () => {
    const [printed, assertion, broken, stdin, slow] = await Promise.all([
      run('rust', 'fn main() {\n    println!("123");\n}', { run_timeout: 5, compile_timeout: 30 }),
      run('rust', 'fn main() {\n    assert_eq!(1, 2);\n}', { run_timeout: 5, compile_timeout: 30 }),
      run('rust', 'fn main() {\n    let x: u32 = "Hello, world!";\n    println!("{}", x);\n}', {
        compile_timeout: 30,
      }),
      run(
        'rust',
        'use std::io;\nfn main() {\n    let mut input = String::new();\n    io::stdin().read_line(&mut input).expect("Failed to read line");\n    let num: i32 = input.trim().parse().expect("Invalid input");\n    println!("{}", num);\n}',
        { run_timeout: 5, compile_timeout: 30, stdin: '65535' },
      ),
      // Upstream allows a 1 s compile; rustc takes longer on a loaded machine.
      run(
        'rust',
        'use std::{thread, time};\nfn main() {\n    thread::sleep(time::Duration::from_millis(200));\n}',
        { run_timeout: 0.1, compile_timeout: 30 },
      ),
    ]);
    expect(printed).toMatchObject({ status: 'Success', compile_result: { status: 'Finished' } });
    expect(printed.run_result?.stdout?.trim()).toBe('123');
    expect(assertion).toMatchObject({ status: 'Failed', run_result: { status: 'Finished' } });
    expect(assertion.run_result?.stderr).toContain('assertion');
    expect(broken).toMatchObject({
      status: 'Failed',
      compile_result: { status: 'Finished' },
      run_result: null,
    });
    expect(broken.compile_result?.return_code).not.toBe(0);
    expect(stdin).toMatchObject({ status: 'Success', run_result: { status: 'Finished', stdout: '65535\n' } });
    expect(slow).toMatchObject({ status: 'Failed', run_result: { status: 'TimeLimitExceeded' } });
  });
});

const wordCount = (
  imports: 'after' | 'before',
  expectation: 'in' | 'not in',
) => `${imports === 'before' ? 'import string\nfrom collections import Counter\n\n' : ''}
def word_count(file_path):
    try:
        with open(file_path, 'r', encoding='utf-8') as file:
            content = file.read()
        translator = str.maketrans("", "", string.punctuation)
        content = content.translate(translator).lower()
        words = content.split()
        for word, count in sorted(Counter(words).items(), key=lambda x: x[1], reverse=True):
            print(f"'{word}': {count}")
    except FileNotFoundError:
        print(f"Error: File '{file_path}' not found.")
${imports === 'after' ? '\nimport string\nfrom collections import Counter\n' : ''}

class Testword_count:
    def test_word_count_case_sensitive_file(self, capfd, tmp_path):
        file_path = tmp_path / 'test_case_sensitive.txt'
        with open(file_path, 'w', encoding='utf-8') as file:
            file.write("Case case CASE")
        word_count(file_path)
        captured = capfd.readouterr()
        assert "'case': 3" ${expectation} captured.out

    def test_word_count_punctuation_file(self, capfd, tmp_path):
        file_path = tmp_path / 'test_punctuation.txt'
        with open(file_path, 'w', encoding='utf-8') as file:
            file.write("This sentence has some punctuation, like commas and periods.")
        word_count(file_path)
        captured = capfd.readouterr()
        assert "'this': 1\\n'sentence': 1\\n'has': 1\\n'some': 1\\n'punctuation': 1\\n'like': 1\\n'commas': 1\\n'and': 1\\n'periods': 1\\n" ${expectation} captured.out
`;

describe.skipIf(!present('pytest'))('upstream test_pytest.py', () => {
  test('the same file passes as a script and as tests; its failing twin passes as a script and fails as tests', async () => {
    const pass = wordCount('after', 'in');
    const fail = wordCount('after', 'not in');
    const [script, tests, failScript, failTests] = await Promise.all([
      run('python', pass, { run_timeout: 5 }),
      run('pytest', pass, { run_timeout: 20 }),
      run('python', fail, { run_timeout: 5 }),
      run('pytest', fail, { run_timeout: 20 }),
    ]);
    expect(script.status).toBe('Success');
    expect(tests.status).toBe('Success');
    expect(failScript.status).toBe('Success');
    expect(failTests.status).toBe('Failed');
    expect(failTests.run_result?.stdout).toMatch(/2 failed/);
  });
});
