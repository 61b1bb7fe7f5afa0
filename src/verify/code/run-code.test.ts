import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createCodeSandbox } from './code-sandbox.js';
import { LANGUAGE_RECIPES, type LanguageRecipe, missingToolchain } from './run-code-languages.js';
import type { RunCodeRequest } from './sandbox-fusion.js';
import { cBattery, pythonBattery } from './test-utils/run-code-batteries.js';
import {
  type Battery,
  b64,
  escapeBattery,
  HOST_FILE,
  hasBwrap,
  MARKER,
  present,
} from './test-utils/run-code-battery.js';

const sandbox = createCodeSandbox({ limits: { memoryMb: 256 } });

const nodeBattery: Battery = {
  echo: `const s=require('fs').readFileSync(0,'utf8').trim();if(s==='exit'){console.error('bye');process.exit(3)}console.log(s.toUpperCase());`,
  network: (port) =>
    `const s=require('net').connect(${port},'127.0.0.1');s.on('connect',()=>{console.log('ESCAPED');s.destroy()});s.on('error',()=>console.log('blocked'));`,
  hostFile: `const fs=require('fs');for(const p of ['${HOST_FILE}','/etc/shadow']){try{fs.readFileSync(p);console.log('ESCAPED')}catch{}}console.log('blocked');`,
  writeHost: `const fs=require('fs');fs.writeFileSync('${MARKER}','x');try{fs.writeFileSync('/usr/rewardkit-evil','x');console.log('ESCAPED')}catch{console.log('blocked')}`,
  forkBomb: `const {spawn}=require('child_process');for(;;){try{spawn('/bin/sh',['-c','sleep 30'])}catch{}}`,
  memory: `const a=[];for(let i=0;i<64;i++)a.push(Buffer.alloc(16<<20,1));console.log('ESCAPED');`,
  spin: 'for(;;){}',
  closeAndSleep: `const fs=require('fs');fs.closeSync(1);fs.closeSync(2);setTimeout(()=>{},30000);`,
};

const bashBattery: Battery = {
  echo: `read s; if [ "$s" = exit ]; then echo bye >&2; exit 3; fi; echo "\${s^^}"`,
  network: (port) =>
    `if (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; then echo ESCAPED; else echo blocked; fi`,
  hostFile: `if cat '${HOST_FILE}' /etc/shadow >/dev/null 2>&1; then echo ESCAPED; else echo blocked; fi`,
  writeHost: `echo x > '${MARKER}'; if echo x > /usr/rewardkit-evil 2>/dev/null; then echo ESCAPED; else echo blocked; fi`,
  forkBomb: 'f(){ f | f & }; f',
  memory: `x=$(head -c 1000000000 /dev/zero | tr '\\0' a); echo ESCAPED`,
  spin: 'while :; do :; done',
  closeAndSleep: 'exec 1>&- 2>&-; sleep 30',
};

const GO_PRELUDE = `package main
import ("bufio"; "fmt"; "net"; "os"; "os/exec"; "strings"; "time")
var _ = []interface{}{bufio.NewReader, fmt.Println, net.Dial, os.Exit, exec.Command, strings.ToUpper, time.Sleep}
`;
const goBattery: Battery = {
  echo: `${GO_PRELUDE}func main() { s, _ := bufio.NewReader(os.Stdin).ReadString('\\n'); s = strings.TrimSpace(s); if s == "exit" { fmt.Fprintln(os.Stderr, "bye"); os.Exit(3) }; fmt.Println(strings.ToUpper(s)) }`,
  network: (port) =>
    `${GO_PRELUDE}func main() { if _, err := net.Dial("tcp", "127.0.0.1:${port}"); err == nil { fmt.Println("ESCAPED") } else { fmt.Println("blocked") } }`,
  hostFile: `${GO_PRELUDE}func main() { _, a := os.ReadFile("${HOST_FILE}"); _, b := os.ReadFile("/etc/shadow"); if a == nil || b == nil { fmt.Println("ESCAPED") } else { fmt.Println("blocked") } }`,
  writeHost: `${GO_PRELUDE}func main() { os.WriteFile("${MARKER}", []byte("x"), 0o644); if os.WriteFile("/usr/rewardkit-evil", []byte("x"), 0o644) == nil { fmt.Println("ESCAPED") } else { fmt.Println("blocked") } }`,
  forkBomb: `${GO_PRELUDE}func main() { for { exec.Command("/bin/sh", "-c", "sleep 30").Start() } }`,
  memory: `${GO_PRELUDE}func main() { var keep [][]byte; for i := 0; i < 64; i++ { b := make([]byte, 16<<20); for j := range b { b[j] = 1 }; keep = append(keep, b) }; fmt.Println("ESCAPED", len(keep)) }`,
  spin: `${GO_PRELUDE}func main() { n := 0; for { n++ } }`,
  closeAndSleep: `${GO_PRELUDE}func main() { os.Stdout.Close(); os.Stderr.Close(); time.Sleep(30 * time.Second) }`,
};

const rustBattery: Battery = {
  echo: `use std::io::BufRead;\nfn main() { let mut s = String::new(); std::io::stdin().lock().read_line(&mut s).unwrap(); let s = s.trim(); if s == "exit" { eprintln!("bye"); std::process::exit(3); } println!("{}", s.to_uppercase()); }`,
  network: (port) =>
    `fn main() { println!("{}", if std::net::TcpStream::connect(("127.0.0.1", ${port})).is_ok() { "ESCAPED" } else { "blocked" }); }`,
  hostFile: `fn main() { let leaked = std::fs::read("${HOST_FILE}").is_ok() || std::fs::read("/etc/shadow").is_ok(); println!("{}", if leaked { "ESCAPED" } else { "blocked" }); }`,
  writeHost: `fn main() { let _ = std::fs::write("${MARKER}", "x"); println!("{}", if std::fs::write("/usr/rewardkit-evil", "x").is_ok() { "ESCAPED" } else { "blocked" }); }`,
  forkBomb: `fn main() { loop { let _ = std::process::Command::new("/bin/sh").args(["-c", "sleep 30"]).spawn(); } }`,
  memory: `fn main() { let mut keep = Vec::new(); for _ in 0..64 { keep.push(vec![1u8; 16 << 20]); } println!("ESCAPED {}", keep.len()); }`,
  spin: 'fn main() { let mut n: u64 = 0; loop { n = n.wrapping_add(1); } }', // rustc builds without -O, as upstream does
  closeAndSleep: `use std::os::unix::io::FromRawFd;\nfn main() { unsafe { drop(std::fs::File::from_raw_fd(1)); drop(std::fs::File::from_raw_fd(2)); } std::thread::sleep(std::time::Duration::from_secs(30)); }`,
};

const LANGUAGES: ReadonlyArray<readonly [string, Battery]> = [
  ['c', cBattery],
  ['cpp', cBattery],
  ['nodejs', nodeBattery],
  ['typescript', nodeBattery],
  ['bash', bashBattery],
  ['python', pythonBattery],
  ['go', goBattery],
  ['rust', rustBattery],
];

escapeBattery(sandbox, LANGUAGES);

const run = (language: string, code: string, extra: Partial<RunCodeRequest> = {}) =>
  sandbox.runCode({ code, language, run_timeout: 1, ...extra });

describe('/run_code with the JVM and pytest', () => {
  test.skipIf(!present('java'))(
    'should compile Main.java, run it with assertions on and report its exit code',
    async () => {
      const code =
        'public class Main { public static void main(String[] a) { java.util.Scanner s = new java.util.Scanner(System.in); int n = s.nextInt(); System.out.println(n * 2); assert n > 0; } }';
      expect(await run('java', code, { stdin: '21', run_timeout: 20, compile_timeout: 30 })).toMatchObject({
        status: 'Success',
        compile_result: { status: 'Finished', return_code: 0 },
        run_result: { status: 'Finished', return_code: 0, stdout: '42\n' },
      });
      const failed = await run('java', code, { stdin: '-1', run_timeout: 20, compile_timeout: 30 });
      expect(failed).toMatchObject({ status: 'Failed', run_result: { return_code: 1 } });
      expect(failed.run_result?.stderr).toContain('AssertionError');
    },
  );

  test.skipIf(!present('pytest'))('should run pytest on the code and report its exit code', async () => {
    const code =
      'def add(a, b):\n    return a + b\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_wrong():\n    assert add(1, 2) == 4\n';
    const result = await run('pytest', code, { run_timeout: 20 });
    expect(result).toMatchObject({ status: 'Failed', run_result: { status: 'Finished', return_code: 1 } });
    expect(result.run_result?.stdout).toMatch(/1 failed, 1 passed/);
  });
});

describe.skipIf(!hasBwrap)('/run_code files and limits', () => {
  test('should write files into the working directory and fetch the ones asked for', async () => {
    const result = await run(
      'bash',
      'mkdir -p out && tr a-z A-Z < data/in.txt > out/up.txt && cat empty.txt',
      {
        files: { 'data/in.txt': b64('abc'), 'empty.txt': '', 'skipped.txt': null },
        fetch_files: ['out/up.txt', 'missing.txt'],
        run_timeout: 10,
      },
    );
    expect(result).toMatchObject({ status: 'Success', files: { 'out/up.txt': b64('ABC') } });
    expect(Object.keys(result.files)).toEqual(['out/up.txt']);
  });

  test('should not fetch through a symlink out of the working directory, and say so', async () => {
    const result = await run('bash', 'ln -s /dev/zero zero && ln -s /usr/bin/bash sh && echo ok > ok.txt', {
      fetch_files: ['zero', 'sh', 'ok.txt'],
      run_timeout: 10,
    });
    expect(result).toMatchObject({ status: 'Success', files: { 'ok.txt': b64('ok\n') } });
    expect(Object.keys(result.files)).toEqual(['ok.txt']);
    expect(result.message).toMatch(/fetch_files: "zero" is not a regular file inside the working directory/);
    expect(result.message).toMatch(/fetch_files: "sh"/);
  });

  test('should take memory_limit_MB -1 (upstream default) as the server default', async () => {
    const result = await run('python', 'print(1)', { memory_limit_MB: -1, run_timeout: 10 });
    expect(result.status).toBe('Success');
  });

  test('should count files written to the working directory against the memory limit', async () => {
    // 96 files of 16 MB once took 1.5 GB of host memory; now the tmpfs holds at most the limit.
    const code = 'for i in $(seq 96); do head -c 16000000 /dev/zero > f$i || exit 9; done; echo ESCAPED';
    const result = await run('bash', code, { memory_limit_MB: 128, run_timeout: 10 });
    expect(result.status).toBe('Failed');
    expect(result.run_result?.stdout).not.toContain('ESCAPED');
  });

  test('should refuse files larger than the working directory may hold, naming the field', async () => {
    const big = Buffer.alloc(80 << 20).toString('base64');
    const result = await run('bash', 'true', { files: { 'big.bin': big }, memory_limit_MB: 128 });
    expect(result).toMatchObject({ status: 'SandboxError', run_result: null });
    expect(result.message).toMatch(/^files: /);
  });

  test.skipIf(!present('cpp'))(
    'should report a compile error without running, as upstream does',
    async () => {
      const result = await run('cpp', 'int main( {');
      expect(result).toMatchObject({
        status: 'Failed',
        compile_result: { status: 'Finished', return_code: 1 },
        run_result: null,
      });
      expect(result.compile_result?.stderr).toMatch(/error/);
    },
  );

  test.skipIf(!present('typescript'))(
    'should report TypeScript syntax errors as a failed compile',
    async () => {
      const result = await run('typescript', 'const x: number = ;');
      expect(result).toMatchObject({
        status: 'Failed',
        compile_result: { return_code: 1 },
        run_result: null,
      });
    },
  );

  test.skipIf(!present('typescript'))('should erase types and run with Node builtins', async () => {
    const code =
      "import { EOL } from 'os';\ninterface P { x: number }\nconst p: P = { x: 2 };\nprocess.stdout.write(String(p.x * 21) + EOL);";
    expect(await run('typescript', code, { run_timeout: 10 })).toMatchObject({
      status: 'Success',
      run_result: { stdout: '42\n' },
    });
  });

  test('should be killed when the caller aborts', async () => {
    const controller = new AbortController();
    const started = sandbox.runCode(
      { code: 'sleep 30', language: 'bash', run_timeout: 30 },
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error('gone')), 300);
    await expect(started).rejects.toThrow('gone');
  });
});

describe('/run_code without a toolchain or with bad input', () => {
  test('should name the missing path and the Debian package to install', () => {
    const recipe = { ...(LANGUAGE_RECIPES.go as LanguageRecipe), needs: ['/nonexistent/bin/go'] };
    expect(missingToolchain('go-elsewhere', recipe)).toBe(
      'language "go-elsewhere" needs the Debian package "golang-go" on the server (/nonexistent/bin/go is missing): apt-get install golang-go',
    );
  });

  test('should answer SandboxError naming the Debian package of a toolchain missing here', async () => {
    const missing = Object.entries(LANGUAGE_RECIPES).find(([name, recipe]) => missingToolchain(name, recipe));
    if (!hasBwrap || !missing) return; // every toolchain is installed on this machine; see the test above
    const result = await run(missing[0], 'x');
    expect(result.status).toBe('SandboxError');
    expect(result.message).toContain(`apt-get install ${missing[1].debianPackage}`);
  });

  test('should answer SandboxError for a SandboxFusion language rewardkit does not run', async () => {
    const result = await run('julia', 'println(1)');
    expect(result).toMatchObject({ status: 'SandboxError', run_result: null });
    expect(result.message).toMatch(/not supported/);
  });

  test.each([
    ['an unknown language', { language: 'cobol' }, /unknown language "cobol".*at language/s],
    ['bad base64', { files: { 'a.txt': 'no!' } }, /not valid base64.*at files\["a\.txt"\]/s],
    ['a path outside the working directory', { files: { '../x': '' } }, /relative to the working directory/],
    ['a non-numeric timeout', { run_timeout: '10' }, /run_timeout/],
  ])('should answer SandboxError for %s, naming the field', async (_, patch, message) => {
    const result = await sandbox.runCode({ code: 'x', language: 'python', ...patch } as RunCodeRequest);
    expect(result.status).toBe('SandboxError');
    expect(result.message).toMatch(message);
  });
});

test('should leave the host file it protects intact', () => {
  expect(readFileSync(HOST_FILE, 'utf8')).toContain('"name": "rewardkit"');
});
