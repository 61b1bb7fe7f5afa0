import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createCodeSandbox } from './code-sandbox.js';
import { ensurePhpTag } from './run-code-recipes-scripting.js';
import type { RunCodeRequest, RunCodeResult } from './sandbox-fusion.js';
import { type Battery, escapeBattery, HOST_FILE, MARKER, present } from './test-utils/run-code-battery.js';

const sandbox = createCodeSandbox({ limits: { memoryMb: 256 } });

const run = (language: string, code: string, extra: Partial<RunCodeRequest> = {}) =>
  sandbox.runCode({ code, language, ...extra });

const luaBattery: Battery = {
  echo: `local s = io.read('l') or ''\nif s == 'exit' then io.stderr:write('bye\\n') os.exit(3) end\nprint(s:upper())`,
  // Lua's standard library has no sockets: the program reaches for the network through a shell.
  network: (port) =>
    `print(os.execute("bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' 2>/dev/null") and 'ESCAPED' or 'blocked')`,
  hostFile: `for _, p in ipairs({'${HOST_FILE}', '/etc/shadow'}) do if io.open(p) then print('ESCAPED') end end\nprint('blocked')`,
  writeHost: `local g = io.open('${MARKER}', 'w')\nif g then g:write('x') g:close() end\nprint(io.open('/usr/rewardkit-evil', 'w') and 'ESCAPED' or 'blocked')`,
  forkBomb: `while true do pcall(io.popen, 'sleep 30') end`,
  memory: `local t = {}\nfor i = 1, 64 do t[i] = string.rep(string.char(65 + i % 26), 16 << 20) end\nprint('ESCAPED')`,
  spin: 'while true do end',
  // Lua cannot close its standard files (they are marked no-close), so the shell it starts does.
  closeAndSleep: `os.execute('exec 1>&- 2>&-; sleep 30')`,
};

const perlBattery: Battery = {
  echo: `my $s = <STDIN>; chomp $s;\nif ($s eq 'exit') { print STDERR "bye\\n"; exit 3 }\nprint uc($s), "\\n";`,
  network: (port) =>
    `use IO::Socket::INET;\nmy $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => ${port}, Proto => 'tcp', Timeout => 1);\nprint $s ? "ESCAPED\\n" : "blocked\\n";`,
  hostFile: `for my $p ('${HOST_FILE}', '/etc/shadow') { print "ESCAPED\\n" if open(my $f, '<', $p) }\nprint "blocked\\n";`,
  writeHost: `if (open(my $g, '>', '${MARKER}')) { print $g 'x'; close $g }\nprint open(my $f, '>', '/usr/rewardkit-evil') ? "ESCAPED\\n" : "blocked\\n";`,
  forkBomb: 'fork while 1;',
  memory: `my @a;\npush @a, chr(65 + $_ % 26) x (16 << 20) for 1 .. 64;\nprint "ESCAPED\\n";`,
  spin: '1 while 1;',
  closeAndSleep: 'close STDOUT; close STDERR; sleep 30;',
};

// Without `<?php`: the runner adds it, as upstream's does.
const phpBattery: Battery = {
  echo: `$s = trim(fgets(STDIN));\nif ($s === 'exit') { fwrite(STDERR, "bye\\n"); exit(3); }\necho strtoupper($s), "\\n";`,
  network: (port) =>
    `$s = @fsockopen('127.0.0.1', ${port}, $errno, $errstr, 1);\necho $s ? "ESCAPED\\n" : "blocked\\n";`,
  hostFile: `foreach (['${HOST_FILE}', '/etc/shadow'] as $p) { if (@file_get_contents($p) !== false) echo "ESCAPED\\n"; }\necho "blocked\\n";`,
  writeHost: `@file_put_contents('${MARKER}', 'x');\necho @file_put_contents('/usr/rewardkit-evil', 'x') !== false ? "ESCAPED\\n" : "blocked\\n";`,
  forkBomb: 'while (true) { @pcntl_fork(); }',
  memory: `$a = [];\nfor ($i = 0; $i < 64; $i++) $a[] = str_repeat(chr(65 + $i % 26), 16 << 20);\necho "ESCAPED\\n";`,
  spin: 'while (true) {}',
  closeAndSleep: 'fclose(STDOUT); fclose(STDERR); sleep(30);',
};

const rubyBattery: Battery = {
  echo: `s = $stdin.gets.to_s.strip\nif s == 'exit'\n  $stderr.puts 'bye'\n  exit 3\nend\nputs s.upcase`,
  network: (port) =>
    `require 'socket'\nbegin\n  Socket.tcp('127.0.0.1', ${port}, connect_timeout: 1).close\n  puts 'ESCAPED'\nrescue StandardError\n  puts 'blocked'\nend`,
  hostFile: `['${HOST_FILE}', '/etc/shadow'].each do |p|\n  File.read(p)\n  puts 'ESCAPED'\nrescue SystemCallError\nend\nputs 'blocked'`,
  writeHost: `File.write('${MARKER}', 'x') rescue nil\nbegin\n  File.write('/usr/rewardkit-evil', 'x')\n  puts 'ESCAPED'\nrescue SystemCallError\n  puts 'blocked'\nend`,
  forkBomb: 'loop { fork rescue nil }',
  memory: `a = (1..64).map { |i| (65 + i % 26).chr * (16 << 20) }\nputs 'ESCAPED', a.size`,
  spin: 'loop {}',
  // Ruby keeps fds 0-2 open when its standard IO objects are closed; reopening replaces them.
  closeAndSleep: '$stdout.reopen(File::NULL)\n$stderr.reopen(File::NULL)\nsleep 30',
};

const rBattery: Battery = {
  echo: `con <- file('stdin'); s <- trimws(readLines(con, n = 1)); close(con)\nif (s == 'exit') { cat('bye\\n', file = stderr()); quit(status = 3) }\ncat(toupper(s), '\\n', sep = '')`,
  network: (port) =>
    `ok <- tryCatch({ con <- socketConnection('127.0.0.1', ${port}, blocking = TRUE, open = 'r+b', timeout = 1); close(con); TRUE }, error = function(e) FALSE, warning = function(w) FALSE)\ncat(if (ok) 'ESCAPED\\n' else 'blocked\\n')`,
  hostFile: `for (p in c('${HOST_FILE}', '/etc/shadow')) if (!is.null(tryCatch(readLines(p, warn = FALSE), error = function(e) NULL, warning = function(w) NULL))) cat('ESCAPED\\n')\ncat('blocked\\n')`,
  writeHost: `try(writeLines('x', '${MARKER}'), silent = TRUE)\nok <- tryCatch({ writeLines('x', '/usr/rewardkit-evil'); TRUE }, error = function(e) FALSE, warning = function(w) FALSE)\ncat(if (ok) 'ESCAPED\\n' else 'blocked\\n')`,
  forkBomb: 'repeat try(parallel::mcparallel(Sys.sleep(30)), silent = TRUE)',
  memory: `a <- lapply(1:64, function(i) rep(as.numeric(i), 2^21))\ncat('ESCAPED\\n')`,
  spin: 'repeat {}',
  // R's own connections to stdout and stderr cannot be closed; parallel's fork helpers close the fds.
  closeAndSleep: 'parallel:::closeFD(c(1L, 2L))\nSys.sleep(30)',
};

// racket/base starts in about 75 MB of address space where `#lang racket` needs 149 MB, so the
// memory bomb below runs in the battery's 128 MB rather than failing at start-up.
const racketBattery: Battery = {
  echo: `#lang racket/base\n(define line (read-line))\n(define s (if (eof-object? line) "" line))\n(when (equal? s "exit") (eprintf "bye\\n") (exit 3))\n(displayln (string-upcase s))`,
  network: (port) =>
    `#lang racket/base\n(require racket/tcp)\n(displayln (with-handlers ([exn:fail? (lambda (e) "blocked")]) (let-values ([(i o) (tcp-connect "127.0.0.1" ${port})]) "ESCAPED")))`,
  hostFile: `#lang racket/base\n(require racket/file)\n(for ([p (list "${HOST_FILE}" "/etc/shadow")]) (with-handlers ([exn:fail? void]) (file->string p) (displayln "ESCAPED")))\n(displayln "blocked")`,
  writeHost: `#lang racket/base\n(with-handlers ([exn:fail? void]) (call-with-output-file "${MARKER}" (lambda (o) (display "x" o))))\n(displayln (with-handlers ([exn:fail? (lambda (e) "blocked")]) (call-with-output-file "/usr/rewardkit-evil" (lambda (o) (display "x" o))) "ESCAPED"))`,
  forkBomb: `#lang racket/base\n(let loop () (with-handlers ([exn:fail? void]) (subprocess #f #f #f "/bin/sleep" "30")) (loop))`,
  memory: `#lang racket/base\n(define keep (for/list ([i 64]) (make-bytes (* 16 1024 1024) i)))\n(displayln "ESCAPED")`,
  spin: '#lang racket/base\n(let loop () (loop))',
  closeAndSleep: `#lang racket/base\n(close-output-port (current-output-port))\n(close-output-port (current-error-port))\n(sleep 30)`,
};

escapeBattery(sandbox, [
  ['lua', luaBattery],
  ['perl', perlBattery],
  ['php', phpBattery],
  ['ruby', rubyBattery],
  ['R', rBattery],
  ['racket', racketBattery],
]);

describe('ensurePhpTag, as upstream’s ensure_php_tag_in_string', () => {
  test.each([
    ['adds the tag to code without one', 'echo 1;', '<?php\necho 1;'],
    ['strips leading whitespace before an existing tag', '\n    <?php\necho 1;', '<?php\necho 1;'],
    ['strips what Python’s isspace strips (NBSP, U+001C)', '\u00a0\u001c<?php echo 1;', '<?php echo 1;'],
    [
      'keeps a byte-order mark, which Python does not strip',
      '\ufeff<?php echo 1;',
      '<?php\n\ufeff<?php echo 1;',
    ],
    ['matches the tag case-sensitively', '<?PHP echo 1;', '<?php\n<?PHP echo 1;'],
    ['leaves a short open tag to be wrapped', '<? echo 1;', '<?php\n<? echo 1;'],
  ])('%s', (_, code, written) => {
    expect(ensurePhpTag(code)).toBe(written);
  });
});

/** One of upstream's runner tests: the request, and what its assertions require of the answer. */
interface UpstreamCase {
  readonly name: string;
  readonly code: string;
  readonly request?: Partial<RunCodeRequest>;
  readonly status: 'Success' | 'Failed';
  readonly run: 'Finished' | 'TimeLimitExceeded';
  readonly check?: (result: RunCodeResult) => void;
  /** Libraries the case loads, by the file their Debian package installs. */
  readonly libraries?: readonly Library[];
}

interface Library {
  readonly path: string;
  readonly debianPackage: string;
}

const LUAUNIT = { path: '/usr/share/lua/5.4/luaunit.lua', debianPackage: 'lua-unit' };
const TEST_DEEP = { path: '/usr/share/perl5/Test/Deep.pm', debianPackage: 'libtest-deep-perl' };
const DATA_COMPARE = { path: '/usr/share/perl5/Data/Compare.pm', debianPackage: 'libdata-compare-perl' };

const stdout = (result: RunCodeResult) => result.run_result?.stdout ?? '';
const stderr = (result: RunCodeResult) => result.run_result?.stderr ?? '';

/**
 * SandboxFusion's `sandbox/tests/runners/test_{lua,perl,php,ruby,r,racket}.py`, rewritten: the
 * same programs and the same assertions. The time-limit cases run with a 1 s limit where upstream
 * gives ruby, R and racket 5 s (the programs sleep 5–10 s, so the outcome is the same).
 * Left out: none.
 */
const UPSTREAM_CASES: ReadonlyArray<readonly [string, readonly UpstreamCase[]]> = [
  [
    'lua',
    [
      {
        name: 'print',
        code: '\nprint("Hello, World!")\n    ',
        request: { run_timeout: 5 },
        status: 'Success',
        run: 'Finished',
        check: (r) => expect(stdout(r).trim()).toBe('Hello, World!'),
      },
      {
        name: 'timeout',
        code: '\nos.execute("sleep 3")\n    ',
        request: { run_timeout: 1 },
        status: 'Failed',
        run: 'TimeLimitExceeded',
      },
      {
        name: 'assertion success',
        code: "\nlu = require('luaunit')\nlu.assertEquals(0, 0)\n    ",
        status: 'Success',
        run: 'Finished',
        libraries: [LUAUNIT],
      },
      {
        name: 'assertion error',
        code: "\nlu = require('luaunit')\nlu.assertEquals(1, 2)\n    ",
        status: 'Failed',
        run: 'Finished',
        check: (r) => expect(stderr(r)).toContain('LuaUnit test FAILURE'),
        libraries: [LUAUNIT],
      },
    ],
  ],
  [
    'perl',
    [
      {
        name: 'print',
        code: '\nprint "Hello, World!\\n";\n    ',
        request: { run_timeout: 5 },
        status: 'Success',
        run: 'Finished',
        check: (r) => expect(stdout(r).trim()).toContain('Hello, World!'),
      },
      {
        name: 'timeout',
        code: '\nsleep(5);\nprint("Finished waiting for 5 seconds.")\n    ',
        request: { run_timeout: 1 },
        status: 'Failed',
        run: 'TimeLimitExceeded',
      },
      {
        name: 'assertion success',
        code: '\nuse Test::Deep;\nuse Data::Compare;\n\nsub test {\n        if(eq_deeply(1, 1)) {\n        print "ok!" }else{\n        exit 1;\n        }\n}\n\ntest();\n    ',
        status: 'Success',
        run: 'Finished',
        libraries: [TEST_DEEP, DATA_COMPARE],
      },
      {
        name: 'assertion error',
        code: '\nuse Test::Deep;\n\nsub test {\n        if(eq_deeply(0, 1)) {\n        print "ok!" }else{\n        exit 1;\n        }\n}\n\ntest();\n    ',
        status: 'Failed',
        run: 'Finished',
        // Without Test::Deep the program also fails (Perl cannot load it), so the library is required.
        check: (r) => expect(r.run_result?.return_code).toBe(1),
        libraries: [TEST_DEEP],
      },
    ],
  ],
  [
    'php',
    [
      {
        name: 'print',
        code: '\n    <?php\n    echo "123";\n    ?>\n    ',
        request: { run_timeout: 5 },
        status: 'Success',
        run: 'Finished',
        check: (r) => expect(stdout(r).trim()).toBe('123'),
      },
      {
        name: 'timeout',
        code: '\n    <?php\n    sleep(2); // Sleep for 2 seconds\n    ?>\n    ',
        request: { run_timeout: 0.1 },
        status: 'Failed',
        run: 'TimeLimitExceeded',
      },
      {
        name: 'error',
        code: '\n    <?php\n    trigger_error("Custom error", E_USER_ERROR);\n    ?>\n    ',
        status: 'Failed',
        run: 'Finished',
        check: (r) => expect(stderr(r) + stdout(r)).toContain('Custom error'),
      },
      {
        name: 'stdin',
        code: '\n    <?php\n        $input = readline();\n        echo intval($input);\n    ?>\n                             ',
        request: { run_timeout: 5, stdin: '65535' },
        status: 'Success',
        run: 'Finished',
        check: (r) => expect(stdout(r)).toContain('65535'),
      },
    ],
  ],
  [
    'ruby',
    [
      {
        name: 'print',
        code: '\nputs "Hello, World!";\n\n    ',
        request: { run_timeout: 5 },
        status: 'Success',
        run: 'Finished',
        check: (r) => expect(stdout(r).trim()).toContain('Hello, World!'),
      },
      {
        name: 'timeout',
        code: '\nsleep(5)\n    ',
        request: { run_timeout: 1 },
        status: 'Failed',
        run: 'TimeLimitExceeded',
      },
      {
        name: 'assertion success',
        code: "\nrequire 'test/unit'\nclass TestSandbox < Test::Unit::TestCase\n  def test_sandbox\n    assert_equal(0, 0)\n  end\nend\n    ",
        status: 'Success',
        run: 'Finished',
      },
      {
        name: 'assertion error',
        code: "\nrequire 'test/unit'\nclass TestSandbox < Test::Unit::TestCase\n  def test_sandbox\n    assert_equal(1, 0)\n  end\nend\n    ",
        status: 'Failed',
        run: 'Finished',
        check: (r) => expect(stdout(r)).toContain('Failure'),
      },
    ],
  ],
  [
    'R',
    [
      {
        name: 'print',
        code: '\nmyString <- "Hello, World!"\nprint ( myString )\n    ',
        request: { run_timeout: 5 },
        status: 'Success',
        run: 'Finished',
        check: (r) => expect(stdout(r).trim()).toContain('Hello, World!'),
      },
      {
        name: 'timeout',
        code: '\nSys.sleep(5)\nprint("Finished waiting for 5 seconds.")\n    ',
        request: { run_timeout: 1 },
        status: 'Failed',
        run: 'TimeLimitExceeded',
      },
      {
        name: 'assertion success',
        code: '\nstopifnot(isTRUE(all.equal(0, 0)))\n    ',
        status: 'Success',
        run: 'Finished',
      },
      {
        name: 'assertion error',
        code: '\nstopifnot(isTRUE(all.equal(1, 0)))\n    ',
        status: 'Failed',
        run: 'Finished',
        check: (r) => expect(stderr(r)).toContain('Execution halted'),
      },
    ],
  ],
  [
    'racket',
    [
      {
        name: 'print',
        code: '\n#lang racket\n\n(display "Hello, World!")\n    ',
        request: { run_timeout: 5 },
        status: 'Success',
        run: 'Finished',
        check: (r) => expect(stdout(r).trim()).toContain('Hello, World!'),
      },
      {
        name: 'timeout',
        code: '\n#lang racket\n\n(display "Starting sleep...")\n(sleep 10)\n(display "Sleep complete!")\n    ',
        request: { run_timeout: 1 },
        status: 'Failed',
        run: 'TimeLimitExceeded',
      },
      {
        name: 'assertion success',
        code: '\n#lang racket\n\n;; Return length of given string\n(define (strlen string)\n  (string-length string))\n\n(require rackunit)\n\n(define (test-humaneval)\n\n  (let (( candidate strlen))\n    (check-within (candidate "") 0 0.001)\n    (check-within (candidate "x") 1 0.001)\n    (check-within (candidate "asdasnakj") 9 0.001)\n))\n\n(test-humaneval)\n    ',
        status: 'Success',
        run: 'Finished',
      },
    ],
  ],
];

for (const [language, cases] of UPSTREAM_CASES) {
  describe.skipIf(!present(language))(`/run_code ${language}: SandboxFusion's runner tests`, () => {
    for (const c of cases) {
      // A case that loads a library runs where its Debian package is installed.
      const missing = (c.libraries ?? []).filter((library) => !existsSync(library.path));
      const needs =
        missing.length > 0
          ? ` (skipped: apt-get install ${missing.map((l) => l.debianPackage).join(' ')})`
          : '';
      test.skipIf(missing.length > 0)(`should answer ${c.name} as upstream does${needs}`, async () => {
        const result = await run(language, c.code, c.request);
        expect(result).toMatchObject({ status: c.status, run_result: { status: c.run } });
        c.check?.(result);
      });
    }
  });
}

interface MultiPleProgram {
  readonly language: string;
  readonly name: string;
  readonly code: string;
}

/**
 * Two of upstream's Multi-PLE samples per language (`sandbox/tests/datasets/samples/Multi-PLE`):
 * the sample's solution followed by the dataset's tests, as upstream's evaluation joins them.
 */
const MULTI_PLE: readonly MultiPleProgram[] = readFileSync(
  new URL('../../../test/fixtures/run-code/multiple-scripting.jsonl', import.meta.url),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as MultiPleProgram);

const MULTI_PLE_LIBRARIES: Readonly<Record<string, Library>> = { lua: LUAUNIT, perl: TEST_DEEP };

describe('/run_code runs real Multi-PLE programs', () => {
  for (const program of MULTI_PLE) {
    const library = MULTI_PLE_LIBRARIES[program.language];
    const missing = library !== undefined && !existsSync(library.path);
    test.skipIf(!present(program.language) || missing)(
      `should pass ${program.name} in ${program.language}${missing ? ` (skipped: apt-get install ${library.debianPackage})` : ''}`,
      async () => {
        const result = await run(program.language, program.code, { run_timeout: 20 });
        expect(result).toMatchObject({
          status: 'Success',
          run_result: { status: 'Finished', return_code: 0 },
        });
        // rackunit reports a failed check on stderr and still exits 0 (upstream scores that Success too).
        expect(stderr(result)).not.toMatch(/FAILURE|Error|error/);
      },
    );
  }
});

test.skipIf(!present('racket'))(
  'should answer Success for a failed rackunit check, which exits 0 as it does upstream',
  async () => {
    const result = await run('racket', '#lang racket/base\n(require rackunit)\n(check-equal? (+ 1 1) 3)\n', {
      run_timeout: 20,
    });
    expect(result).toMatchObject({ status: 'Success', run_result: { return_code: 0 } });
    expect(stderr(result)).toContain('FAILURE');
  },
);
