import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createCodeSandbox } from './code-sandbox.js';
import { JAVA_CLASSPATH_ENV } from './run-code-jvm.js';
import { javaPublicClassName, scalaObjectName, withImplicitUsings } from './run-code-recipes-compiled.js';
import type { RunCodeRequest } from './sandbox-fusion.js';
import {
  type Battery,
  b64,
  escapeBattery,
  HOST_FILE,
  hostLoopbackService,
  MARKER,
  present,
} from './test-utils/run-code-battery.js';

/*
 * SandboxFusion's tests for these languages (sandbox/tests/runners/test_{csharp,d_ut,go_test,
 * junit,scala,kotlin_script,java}.py), rewritten: their assertions are the spec. Cases that assert
 * the same thing are merged into one run (a JVM start costs seconds on a loaded machine):
 * - csharp: print and stdin are one program (which also has no `using System`, as the stdin case);
 * - D_ut: the assertion-success case is the Multi-PLE program (a passing unittest block);
 * - go_test: pass and fail are one testify program with a passing and a failing test; the pass
 *   case's `ok` line is asserted on the Multi-PLE program;
 * - junit: the pass case's `Success` is asserted on the attack program (every test passes);
 * - scala: print and assertion success are one program; the two `extends App` cases are one failing run;
 * - java: print, stdin and the javatuples jar are one program; `throw new AssertionError` and
 *   `assert 1 == 2` are one program (an `assert` under `-ea` throws java.lang.AssertionError).
 * Left out: nothing of those files; the timeouts are shortened (sleeps of 2–5 s become runs cut at 1 s).
 */

const sandbox = createCodeSandbox({ limits: { memoryMb: 512 } });

const run = (language: string, code: string, extra: Partial<RunCodeRequest> = {}) =>
  sandbox.runCode({ code, language, run_timeout: 20, compile_timeout: 60, ...extra });

const csharpBattery: Battery = {
  echo: 'public class Program { public static int Main() { var s = Console.ReadLine().Trim(); if (s == "exit") { Console.Error.WriteLine("bye"); return 3; } Console.WriteLine(s.ToUpper()); return 0; } }',
  network: (port) =>
    `public class Program { public static void Main() { try { new System.Net.Sockets.TcpClient("127.0.0.1", ${port}); Console.WriteLine("ESCAPED"); } catch (Exception) { Console.WriteLine("blocked"); } } }`,
  hostFile: `public class Program { public static void Main() { foreach (var p in new[] { "${HOST_FILE}", "/etc/shadow" }) { try { File.ReadAllText(p); Console.WriteLine("ESCAPED"); } catch (Exception) { } } Console.WriteLine("blocked"); } }`,
  writeHost: `public class Program { public static void Main() { try { File.WriteAllText("${MARKER}", "x"); } catch (Exception) { } try { File.WriteAllText("/usr/rewardkit-evil", "x"); Console.WriteLine("ESCAPED"); } catch (Exception) { Console.WriteLine("blocked"); } } }`,
  forkBomb:
    'public class Program { public static void Main() { for (;;) { try { System.Diagnostics.Process.Start("/bin/sh", "-c \\"sleep 30\\""); } catch (Exception) { } } } }',
  memory:
    'public class Program { public static void Main() { var keep = new List<byte[]>(); for (int i = 0; i < 64; i++) { var b = new byte[16 << 20]; for (int j = 0; j < b.Length; j += 4096) b[j] = 1; keep.Add(b); } Console.WriteLine("ESCAPED"); } }',
  spin: 'public class Program { public static void Main() { long n = 0; for (;;) n++; } }',
  closeAndSleep:
    'public class Program { [System.Runtime.InteropServices.DllImport("libc")] static extern int close(int fd); public static void Main() { close(1); close(2); Thread.Sleep(30000); } }',
};

const dBattery: Battery = {
  echo: 'import std.stdio, std.string;\nint main() { auto s = readln().strip(); if (s == "exit") { stderr.writeln("bye"); return 3; } writeln(s.toUpper()); return 0; }',
  network: (port) =>
    `import std.stdio, std.socket;\nvoid main() { try { new TcpSocket(new InternetAddress("127.0.0.1", ${port})); writeln("ESCAPED"); } catch (Exception) { writeln("blocked"); } }`,
  hostFile: `import std.stdio, std.file;\nvoid main() { foreach (p; ["${HOST_FILE}", "/etc/shadow"]) { try { read(p); writeln("ESCAPED"); } catch (Exception) {} } writeln("blocked"); }`,
  writeHost: `import std.stdio, std.file;\nvoid main() { try { std.file.write("${MARKER}", "x"); } catch (Exception) {} try { std.file.write("/usr/rewardkit-evil", "x"); writeln("ESCAPED"); } catch (Exception) { writeln("blocked"); } }`,
  forkBomb: 'import core.sys.posix.unistd;\nvoid main() { for (;;) fork(); }',
  memory:
    'import std.stdio;\nvoid main() { ubyte[][] keep; foreach (i; 0 .. 64) { auto b = new ubyte[16 << 20]; b[] = 1; keep ~= b; } writeln("ESCAPED"); }',
  spin: 'void main() { ulong n; for (;;) { n++; } }',
  closeAndSleep:
    'import core.sys.posix.unistd, core.thread;\nvoid main() { close(1); close(2); Thread.sleep(dur!"seconds"(30)); }',
};

const scalaBattery: Battery = {
  echo: 'object Main { def main(args: Array[String]): Unit = { val s = scala.io.StdIn.readLine().trim; if (s == "exit") { System.err.println("bye"); sys.exit(3) }; println(s.toUpperCase) } }',
  network: (port) =>
    `object Main { def main(args: Array[String]): Unit = { try { new java.net.Socket("127.0.0.1", ${port}); println("ESCAPED") } catch { case _: Exception => println("blocked") } } }`,
  hostFile: `object Main { def main(args: Array[String]): Unit = { for (p <- Seq("${HOST_FILE}", "/etc/shadow")) try { java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(p)); println("ESCAPED") } catch { case _: Exception => }; println("blocked") } }`,
  writeHost: `object Main { def main(args: Array[String]): Unit = { val w = (p: String) => java.nio.file.Files.write(java.nio.file.Paths.get(p), "x".getBytes); try { w("${MARKER}") } catch { case _: Exception => }; try { w("/usr/rewardkit-evil"); println("ESCAPED") } catch { case _: Exception => println("blocked") } } }`,
  forkBomb:
    'object Main { def main(args: Array[String]): Unit = while (true) try { new ProcessBuilder("/bin/sh", "-c", "sleep 30").start() } catch { case _: Throwable => } }',
  memory:
    'object Main { def main(args: Array[String]): Unit = { val keep = new java.util.ArrayList[Array[Byte]](); for (i <- 0 until 64) { val b = new Array[Byte](16 << 20); java.util.Arrays.fill(b, 1.toByte); keep.add(b) }; println("ESCAPED") } }',
  spin: 'object Main { def main(args: Array[String]): Unit = { var n = 0L; while (true) n += 1 } }',
  closeAndSleep:
    'object Main { def main(args: Array[String]): Unit = { System.out.close(); System.err.close(); Thread.sleep(30000) } }',
  echoTimeoutS: 20,
};

const kotlinBattery: Battery = {
  echo: 'val s = readLine()!!.trim()\nif (s == "exit") { System.err.println("bye"); kotlin.system.exitProcess(3) }\nprintln(s.toUpperCase())',
  network: (port) =>
    `try { java.net.Socket("127.0.0.1", ${port}); println("ESCAPED") } catch (e: Exception) { println("blocked") }`,
  hostFile: `for (p in listOf("${HOST_FILE}", "/etc/shadow")) try { java.io.File(p).readBytes(); println("ESCAPED") } catch (e: Exception) {}\nprintln("blocked")`,
  writeHost: `try { java.io.File("${MARKER}").writeText("x") } catch (e: Exception) {}\ntry { java.io.File("/usr/rewardkit-evil").writeText("x"); println("ESCAPED") } catch (e: Exception) { println("blocked") }`,
  forkBomb:
    'while (true) try { ProcessBuilder("/bin/sh", "-c", "sleep 30").start() } catch (e: Throwable) {}',
  memory:
    'val keep = ArrayList<ByteArray>()\nfor (i in 0 until 64) keep.add(ByteArray(16 shl 20) { 1 })\nprintln("ESCAPED")',
  spin: 'var n = 0L\nwhile (true) n++',
  closeAndSleep: 'System.out.close(); System.err.close(); Thread.sleep(30000)',
  echoTimeoutS: 30,
};

escapeBattery(sandbox, [
  ['csharp', csharpBattery],
  ['D_ut', dBattery],
  ['scala', scalaBattery],
  ['kotlin_script', kotlinBattery],
]);

/**
 * go_test and junit print their runner's report, not the program's output, and do not pass stdin
 * to the tests: their attacks are unit tests that fail, saying ESCAPED, when the attack works.
 */
interface RunnerAttacks {
  /** One program whose tests connect to `port`, read host files and write host paths. */
  readonly reach: (port: number) => string;
  readonly forkBomb: string;
  readonly memory: string;
  readonly spin: string;
  /** A program whose only test passes, to show the sandbox is usable after the bomb. */
  readonly pass: string;
}

function runnerBattery(language: string, attacks: RunnerAttacks): void {
  describe.skipIf(!present(language))(`/run_code ${language} attacks under bubblewrap`, () => {
    const host = hostLoopbackService();

    test('should not reach the host loopback, read host files or write host paths', async () => {
      rmSync(MARKER, { force: true });
      const result = await run(language, attacks.reach(host.port));
      expect(`${result.run_result?.stdout}${result.run_result?.stderr}`).not.toContain('ESCAPED');
      expect(result).toMatchObject({ status: 'Success', run_result: { status: 'Finished', return_code: 0 } });
      expect(host.connections).toBe(0);
      expect(existsSync(MARKER)).toBe(false);
      expect(existsSync('/usr/rewardkit-evil')).toBe(false);
    });

    test('should contain a fork bomb and stay usable', async () => {
      const bomb = await run(language, attacks.forkBomb, { run_timeout: 3 });
      expect(['Success', 'Failed']).toContain(bomb.status);
      expect(await run(language, attacks.pass)).toMatchObject({ status: 'Success' });
    });

    test('should stop a test past its memory limit', async () => {
      const result = await run(language, attacks.memory, { memory_limit_MB: 128 });
      expect(result.status).toBe('Failed');
      expect(result.run_result?.stdout).not.toContain('ESCAPED');
    });

    test('should end an endless test at run_timeout as TimeLimitExceeded', async () => {
      const result = await run(language, attacks.spin, { run_timeout: 2 });
      expect(result).toMatchObject({
        status: 'Failed',
        run_result: { status: 'TimeLimitExceeded', return_code: null },
      });
    });
  });
}

const GO_TEST = (imports: string, body: string) => `package main\nimport (${imports})\n${body}\n`;
runnerBattery('go_test', {
  reach: (port) =>
    GO_TEST(
      '"net"; "os"; "testing"',
      `func TestNetwork(t *testing.T) { if _, err := net.Dial("tcp", "127.0.0.1:${port}"); err == nil { t.Fatal("ESCAPED") } }
func TestRead(t *testing.T) { if _, err := os.ReadFile("${HOST_FILE}"); err == nil { t.Fatal("ESCAPED") }; if _, err := os.ReadFile("/etc/shadow"); err == nil { t.Fatal("ESCAPED") } }
func TestWrite(t *testing.T) { os.WriteFile("${MARKER}", []byte("x"), 0o644); if os.WriteFile("/usr/rewardkit-evil", []byte("x"), 0o644) == nil { t.Fatal("ESCAPED") } }`,
    ),
  forkBomb: GO_TEST(
    '"os/exec"; "testing"',
    'func TestBomb(t *testing.T) { for { exec.Command("/bin/sh", "-c", "sleep 30").Start() } }',
  ),
  memory: GO_TEST(
    '"testing"',
    'func TestMemory(t *testing.T) { var keep [][]byte; for i := 0; i < 64; i++ { b := make([]byte, 16<<20); for j := range b { b[j] = 1 }; keep = append(keep, b) }; t.Fatal("ESCAPED", len(keep)) }',
  ),
  spin: GO_TEST('"testing"', 'func TestSpin(t *testing.T) { n := 0; for { n++ } }'),
  pass: GO_TEST('"testing"', 'func TestPass(t *testing.T) {}'),
});

const JUNIT = (body: string) =>
  `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\npublic class AttackTest {\n${body}\n}\n`;
runnerBattery('junit', {
  reach: (port) =>
    JUNIT(`@Test void network() { try { new java.net.Socket("127.0.0.1", ${port}); fail("ESCAPED"); } catch (java.io.IOException e) {} }
@Test void read() { for (String p : new String[] {"${HOST_FILE}", "/etc/shadow"}) { try { java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(p)); fail("ESCAPED"); } catch (java.io.IOException e) {} } }
@Test void write() { try { java.nio.file.Files.writeString(java.nio.file.Paths.get("${MARKER}"), "x"); } catch (java.io.IOException e) {} try { java.nio.file.Files.writeString(java.nio.file.Paths.get("/usr/rewardkit-evil"), "x"); fail("ESCAPED"); } catch (java.io.IOException e) {} }`),
  forkBomb: JUNIT(
    '@Test void bomb() { while (true) { try { new ProcessBuilder("/bin/sh", "-c", "sleep 30").start(); } catch (Throwable e) {} } }',
  ),
  memory: JUNIT(
    '@Test void memory() { java.util.List<byte[]> keep = new java.util.ArrayList<>(); for (int i = 0; i < 64; i++) { byte[] b = new byte[16 << 20]; java.util.Arrays.fill(b, (byte) 1); keep.add(b); } fail("ESCAPED"); }',
  ),
  spin: JUNIT('@Test void spin() { long n = 0; while (true) n++; }'),
  pass: JUNIT('@Test void pass() { assertEquals(2, 1 + 1); }'),
});

describe('/run_code recipes: what upstream derives from the code', () => {
  test.each([
    ['public class PhoneNumberCreator {}\nclass PhoneNumberCreatorTest {}', 'PhoneNumberCreator'],
    ['class A {}\npublic final class B {}', 'B'],
    ['class Main {}', undefined],
  ])('should name the junit file after the public class: %j', (code, name) => {
    expect(javaPublicClassName(code)).toBe(name);
  });

  test.each([
    ['object HelloWorld {\n def main(args: Array[String]) = {} }', 'HelloWorld'],
    ['object Main extends App { foo() }', 'Main'],
    ['class A extends B {}\nobject Later', undefined],
    ['println(1)', undefined],
  ])('should find the Scala object as upstream does: %j', (code, name) => {
    expect(scalaObjectName(code)).toBe(name);
  });

  test('should add .NET implicit usings after #define lines, keeping line numbers', () => {
    const code = '#define X\n// note\nclass P {}\nclass Q {}';
    const out = withImplicitUsings(code);
    expect(out.split('\n')).toHaveLength(4);
    expect(out).toMatch(
      /^#define X\n\/\/ note\nusing System; using System\.IO; .*using System\.Threading\.Tasks; class P \{\}\nclass Q \{\}$/,
    );
  });
});

describe.skipIf(!present('csharp'))('/run_code csharp (upstream test_csharp.py)', () => {
  test('should print and read stdin with .NET implicit usings', async () => {
    const code =
      'public class Program { public static void Main(string[] args) { Console.WriteLine("123"); Console.WriteLine(Convert.ToInt32(Console.ReadLine())); } }';
    expect(await run('csharp', code, { stdin: '65535' })).toMatchObject({
      status: 'Success',
      run_result: { status: 'Finished', return_code: 0, stdout: '123\n65535\n' },
    });
  });

  test('should fail the run on a failed Debug.Assert, as .NET does', async () => {
    const code =
      'using System;\nusing System.Diagnostics;\npublic class Program { public static void Main(string[] args) { Console.WriteLine("before"); Debug.Assert(1 == 2, "Assertion failed"); Console.WriteLine("after"); } }';
    const result = await run('csharp', code);
    expect(result).toMatchObject({
      status: 'Failed',
      run_result: { status: 'Finished', return_code: 134, stdout: 'before\n' },
    });
    expect(result.run_result?.stderr).toContain('Process terminated. Assertion failed.\nAssertion failed\n');
  });

  test('should end a sleeping program at run_timeout', async () => {
    const code =
      'using System;\nusing System.Threading;\npublic class Program { public static void Main(string[] args) { Thread.Sleep(2000); } }';
    expect(await run('csharp', code, { run_timeout: 0.5 })).toMatchObject({
      status: 'Failed',
      run_result: { status: 'TimeLimitExceeded' },
    });
  });

  test('should pass a Multi-PLE HumanEval program (System.Numerics, Debug.Assert)', async () => {
    const code = `using System;
using System.Numerics;
using System.Diagnostics;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Security.Cryptography;
class Problem {
    public static long Strlen(string str) {
        return (long)new BigInteger(str.Length);
    }
    public static void Main(string[] args) {
    Debug.Assert(Strlen(("")) == (0L));
    Debug.Assert(Strlen(("x")) == (1L));
    Debug.Assert(Strlen(("asdasnakj")) == (9L));
    }

}
`;
    expect(await run('csharp', code)).toMatchObject({ status: 'Success', run_result: { return_code: 0 } });
  });
});

describe.skipIf(!present('D_ut'))('/run_code D_ut (upstream test_d_ut.py)', () => {
  test('should print from main', async () => {
    const code = 'import std.stdio;\n\nvoid main(string[] args) {\n   writeln("Hello, World!");\n}\n';
    expect(await run('D_ut', code)).toMatchObject({
      status: 'Success',
      run_result: { stdout: 'Hello, World!\n' },
    });
  });

  test('should fail the run when a unittest block fails', async () => {
    const result = await run('D_ut', 'unittest\n{\n    assert(0 == 1);\n}\nvoid main(){}\n');
    expect(result).toMatchObject({ status: 'Failed', run_result: { status: 'Finished', return_code: 1 } });
    expect(result.run_result?.stderr).toMatch(/unittest/);
  });

  test('should end a sleeping program at run_timeout', async () => {
    const code =
      'import core.thread;\nimport std.stdio;\nvoid main() {\n    Thread.sleep( dur!("seconds")( 5 ) );\n    writeln("5 seconds have passed.");\n}\n';
    expect(await run('D_ut', code, { run_timeout: 1 })).toMatchObject({
      status: 'Failed',
      run_result: { status: 'TimeLimitExceeded' },
    });
  });

  test('should pass a Multi-PLE HumanEval program (unittest blocks)', async () => {
    const code = `import std.math;
import std.typecons;
/*
 Return length of given string
*/
long strlen(string string) 
{
    return string.length;
}
unittest
{
    alias candidate = strlen;

    assert(candidate("") == 0L);
    assert(candidate("x") == 1L);
    assert(candidate("asdasnakj") == 9L);
}
void main(){}
`;
    expect(await run('D_ut', code)).toMatchObject({
      status: 'Success',
      run_result: { status: 'Finished', return_code: 0 },
    });
  });
});

describe.skipIf(!present('go_test'))('/run_code go_test (upstream test_go_test.py)', () => {
  // golang-github-stretchr-testify-dev; without it go_test runs, but a program importing testify does not compile.
  const testify = existsSync('/usr/share/gocode/src/github.com/stretchr/testify/assert');
  test.skipIf(!testify)('should run testify tests and report the failing one', async () => {
    const code = `package main

import (
    "math"
    "testing"
    "github.com/stretchr/testify/assert"
)

func HasCloseElements(numbers []float64, threshold float64) bool {
    for i := 0; i < len(numbers); i++ {
        for j := i + 1; j < len(numbers); j++ {
            if math.Abs(numbers[i]-numbers[j]) < threshold {
                return true
            }
        }
    }
    return false
}

func TestRight(t *testing.T) {
    assert := assert.New(t)
    assert.Equal(false, HasCloseElements([]float64{1.0, 2.0, 3.0}, 0.5))
    assert.Equal(true, HasCloseElements([]float64{1.0, 2.8, 3.0, 4.0, 5.0, 2.0}, 0.3))
}

func TestWrong(t *testing.T) {
    assert.Equal(t, true, HasCloseElements([]float64{1.0, 2.0, 3.0}, 0.5))
}
`;
    const result = await run('go_test', code);
    expect(result).toMatchObject({
      status: 'Failed',
      compile_result: { status: 'Finished', return_code: 0 },
      run_result: { status: 'Finished', return_code: 1 },
    });
    expect(result.run_result?.stdout).toContain('Not equal');
    expect(result.run_result?.stdout).toContain('--- FAIL: TestWrong');
    expect(result.run_result?.stdout).not.toContain('--- FAIL: TestRight');
  });

  test('should pass a Multi-PLE HumanEval program and print ok', async () => {
    const code = `package strlen_test

import (
    "testing"
    "fmt"
)

func strlen(myString string) int {
    return len(myString)
}
func TestStrlen(t *testing.T) {
  candidate := strlen
	type test struct {
		actual   interface{}
		expected interface{}
	}
   tests := []test{
     { actual: candidate(""), expected: 0 },
     { actual: candidate("x"), expected: 1 },
     { actual: candidate("asdasnakj"), expected: 9 },
   }

	for i, tc := range tests {
		t.Run(fmt.Sprintf("test num % d", i), func(t *testing.T) {
			if fmt.Sprintf("%v", tc.actual) != fmt.Sprintf("%v", tc.expected) {
				t.Errorf("expected '%s', got '%s'", tc.expected, tc.actual)
			}
		})
	}
}
`;
    const result = await run('go_test', code);
    expect(result).toMatchObject({ status: 'Success', run_result: { return_code: 0 } });
    expect(result.run_result?.stdout).toMatch(/^ok\s/);
  });

  test('should end a test at run_timeout', async () => {
    const code =
      'package main\n\nimport (\n    "time"\n    "testing"\n)\n\nfunc TestTimeout(t *testing.T) {\n    time.Sleep(5 * time.Second)\n}\n';
    expect(await run('go_test', code, { run_timeout: 1 })).toMatchObject({
      status: 'Failed',
      run_result: { status: 'TimeLimitExceeded' },
    });
  });
});

const PHONE = (swap: boolean) => `import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

public class PhoneNumberCreator {
    public static String createPhoneNumber(int[] numbers) {
        StringBuilder phoneNumber = new StringBuilder("(");
        for (int i = 0; i < numbers.length; i++) {
            if (i == ${swap ? 9 : 3}) {
                phoneNumber.append(") ");
            } else if (i == ${swap ? 2 : 6}) {
                phoneNumber.append("-");
            }
            phoneNumber.append(numbers[i]);
        }
        return phoneNumber.toString();
    }
}

class PhoneNumberCreatorTest {
    @Test
    void testCreatePhoneNumber2() {
        assertEquals("(987) 654-3210", PhoneNumberCreator.createPhoneNumber(new int[]{9,8,7,6,5,4,3,2,1,0}));
    }

    @Test
    void testCreatePhoneNumber6() {
        assertEquals("(000) 000-0000", PhoneNumberCreator.createPhoneNumber(new int[]{0,0,0,0,0,0,0,0,0,0}));
    }
}
`;

describe.skipIf(!present('junit'))('/run_code junit (upstream test_junit.py)', () => {
  test('should compile the public class file and fail the run when a test fails', async () => {
    const result = await run('junit', PHONE(true));
    expect(result).toMatchObject({
      status: 'Failed',
      compile_result: { status: 'Finished', return_code: 0 },
      run_result: { status: 'Finished', return_code: 1 },
    });
    expect(result.run_result?.stdout).toMatch(/2 tests failed/);
  });

  const hamcrest = '/usr/share/java/hamcrest.jar';
  test.skipIf(!existsSync(hamcrest))('should put the request .jar files on the classpath', async () => {
    const code = `import org.junit.jupiter.api.Test;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.*;
public class PhoneNumberCreatorTest {
    @Test void sameAsUpstream() { assertThat(PhoneNumberCreator.createPhoneNumber(new int[]{1,2,3,4,5,6,7,8,9,0}), equalTo("(123) 456-7890")); }
}
`;
    const creator = PHONE(false).replace(/class PhoneNumberCreatorTest[\s\S]*$/, '');
    const result = await run('junit', code, {
      files: {
        'PhoneNumberCreator.java': b64(creator),
        'lib/hamcrest.jar': readFileSync(hamcrest).toString('base64'),
      },
    });
    expect(result).toMatchObject({ status: 'Success', run_result: { return_code: 0 } });
    expect(result.run_result?.stdout).toMatch(/1 tests successful/);
  });
});

describe.skipIf(!present('scala'))('/run_code scala (upstream test_scala.py)', () => {
  test('should compile, print and pass its assertions', async () => {
    const code =
      'object HelloWorld {\n    def main(args: Array[String]): Unit = {\n        println("Hello, World!")\n        assert((0l) == (0l));\n    }\n}\n';
    expect(await run('scala', code)).toMatchObject({
      status: 'Success',
      run_result: { status: 'Finished', return_code: 0, stdout: 'Hello, World!\n' },
    });
  });

  test('should fail the run on an assertion in an App object', async () => {
    const code =
      'object Main extends App {\n    def foo() = {\n        assert((1l) == (0l));\n    }\n\n    foo()\n}\n';
    const result = await run('scala', code);
    expect(result).toMatchObject({ status: 'Failed', run_result: { status: 'Finished', return_code: 1 } });
    expect(result.run_result?.stderr).toContain('assertion failed');
  });

  test('should end a sleeping program at run_timeout', async () => {
    const code =
      'object HelloWorld {\n    def main(args: Array[String]): Unit = {\n        Thread.sleep(5 * 1000)\n        println("Hello, World!")\n    }\n}\n';
    expect(await run('scala', code, { run_timeout: 1 })).toMatchObject({
      status: 'Failed',
      run_result: { status: 'TimeLimitExceeded' },
    });
  });

  test('should refuse code without an object, as upstream does (a SandboxError)', async () => {
    expect(await run('scala', 'class A { }')).toMatchObject({
      status: 'SandboxError',
      message: 'Object name not found.',
      compile_result: { status: 'Error', return_code: 1, stderr: 'Object name not found.' },
      run_result: null,
    });
  });

  test('should pass a Multi-PLE HumanEval program', async () => {
    const code = `import scala.math._
import scala.collection.mutable._
object Problem {
    def strlen(string : String) : Long = {
        string.length.toLong
    }
    def main(args: Array[String]) = {
    assert(strlen(("")) == (0l));
    assert(strlen(("x")) == (1l));
    assert(strlen(("asdasnakj")) == (9l));
    }

}
`;
    expect(await run('scala', code)).toMatchObject({ status: 'Success', run_result: { return_code: 0 } });
  });
});

describe.skipIf(!present('kotlin_script'))('/run_code kotlin_script (upstream test_kotlin_script.py)', () => {
  test('should print, and fail the run on an exception with its type on stderr', async () => {
    const ok = await run('kotlin_script', 'println("Hello, World!")\n', { run_timeout: 40 });
    expect(ok).toMatchObject({ status: 'Success', run_result: { stdout: 'Hello, World!\n' } });
    const code =
      'fun minCost() : Int {\n    return 0\n}\n\nfun main() {\n    var x : Int = minCost();\n    var y : Int = 1;\n    if (x != y) {\n        throw Exception("Exception -- test case did not pass. x = " + x)\n    }\n}\n\nmain()\n';
    const failed = await run('kotlin_script', code, { run_timeout: 40 });
    expect(failed).toMatchObject({ status: 'Failed', run_result: { status: 'Finished' } });
    expect(failed.run_result?.stderr).toContain('java.lang.Exception');
  });

  test('should end a sleeping script at run_timeout', async () => {
    const code =
      'fun main() {\n    println("Starting...")\n    Thread.sleep(2000)\n    println("Finished!")\n}\n\nmain()\n';
    expect(await run('kotlin_script', code, { run_timeout: 1 })).toMatchObject({
      status: 'Failed',
      run_result: { status: 'TimeLimitExceeded' },
    });
  });
});

describe.skipIf(!present('java'))('/run_code java (upstream test_java.py)', () => {
  test.skipIf(!existsSync('/usr/share/java/javatuples.jar'))(
    'should print, read stdin and use the javatuples jar',
    async () => {
      const code = `import java.util.Scanner;
import org.javatuples.Pair;
import org.javatuples.Triplet;

public class Main {
    public static void main(String[] args) {
        System.out.println(123);
        System.out.println(new Scanner(System.in).nextInt());
        Pair<String, Integer> pair = Pair.with("apple", 1);
        System.out.println("Fruit: " + pair.getValue0() + ", Quantity: " + pair.getValue1());
        Triplet<String, Integer, Double> triplet = Triplet.with("banana", 2, 0.99);
        System.out.println("Fruit: " + triplet.getValue0() + ", Quantity: " + triplet.getValue1() + ", Price: " + triplet.getValue2());
    }
}
`;
      expect(await run('java', code, { stdin: '65535' })).toMatchObject({
        status: 'Success',
        compile_result: { status: 'Finished', return_code: 0 },
        run_result: {
          status: 'Finished',
          stdout: '123\n65535\nFruit: apple, Quantity: 1\nFruit: banana, Quantity: 2, Price: 0.99\n',
        },
      });
    },
  );

  test('should report a compile error without running', async () => {
    const code =
      'public class Main {\n    public static void main(String[] args) {\n        System.uto.println(123);\n    }\n}\n';
    const result = await run('java', code);
    expect(result).toMatchObject({
      status: 'Failed',
      compile_result: { status: 'Finished' },
      run_result: null,
    });
    expect(result.compile_result?.return_code).not.toBe(0);
  });

  test('should fail the run on an assert, with assertions enabled', async () => {
    const code =
      'public class Main {\n    public static void main(String[] args) {\n        assert 1 == 2 : "Intentional assertion error";\n    }\n}\n';
    const result = await run('java', code);
    expect(result).toMatchObject({ status: 'Failed', run_result: { status: 'Finished', return_code: 1 } });
    expect(result.run_result?.stderr).toContain('java.lang.AssertionError: Intentional assertion error');
  });

  test('should end a sleeping program at run_timeout', async () => {
    const code =
      'public class Main {\n    public static void main(String[] args) throws Exception {\n        Thread.sleep(5000);\n    }\n}\n';
    expect(await run('java', code, { run_timeout: 1 })).toMatchObject({
      status: 'Failed',
      run_result: { status: 'TimeLimitExceeded' },
    });
  });

  test.each([
    ['/nonexistent/rewardkit-jars', /not an absolute path to a folder on the server/],
    ['/tmp', /under \/tmp, which the sandbox replaces/],
  ])(`should refuse to run without the jars when ${JAVA_CLASSPATH_ENV} is %s`, async (folder, message) => {
    process.env[JAVA_CLASSPATH_ENV] = folder;
    try {
      for (const language of ['java', ...(present('junit') ? ['junit'] : [])]) {
        const result = await run(language, 'public class Main {}');
        expect(result).toMatchObject({ status: 'SandboxError', run_result: null });
        expect(result.message).toMatch(message);
      }
    } finally {
      delete process.env[JAVA_CLASSPATH_ENV];
    }
  });

  const hamcrest = '/usr/share/java/hamcrest.jar';
  test.skipIf(!existsSync(hamcrest))(
    `should put the jars of ${JAVA_CLASSPATH_ENV} on the classpath, read-only`,
    async () => {
      // Outside /tmp: the sandbox's own /tmp is a fresh tmpfs over anything bound there.
      const folder = mkdtempSync('/var/tmp/rewardkit-jars-');
      copyFileSync(hamcrest, `${folder}/hamcrest.jar`);
      // The sandbox runs as nobody when the server is root: the folder must be world-readable.
      chmodSync(folder, 0o755);
      process.env[JAVA_CLASSPATH_ENV] = folder;
      try {
        const code = `import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.*;
public class Main {
    public static void main(String[] args) throws Exception {
        assertThat(1 + 1, equalTo(2));
        try { java.nio.file.Files.writeString(java.nio.file.Paths.get("${folder}/evil.jar"), "x"); System.out.println("ESCAPED"); }
        catch (java.io.IOException e) { System.out.println("read-only"); }
    }
}
`;
        expect(await run('java', code)).toMatchObject({
          status: 'Success',
          run_result: { stdout: 'read-only\n' },
        });
        expect(existsSync(`${folder}/evil.jar`)).toBe(false);
      } finally {
        delete process.env[JAVA_CLASSPATH_ENV];
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );
});
