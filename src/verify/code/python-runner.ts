import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import type { Writable } from 'node:stream';
import {
  type CodeLimits,
  type CodeTest,
  type CodeTestResult,
  DEFAULT_LIMITS,
  sameOutput,
} from './code-test.js';
import { PYTHON_HARNESS } from './python-harness.js';
import { sandboxHostsFile } from './sandbox-hosts-file.js';

/** How Python is isolated: bubblewrap, or (only by explicit opt-in) rlimits alone. */
export type PythonIsolation = 'bubblewrap' | 'unsafe-local';

interface HarnessLine {
  nonce: string;
  index: number;
  status: 'finished' | 'timeout' | 'error' | 'memory' | 'output_limit';
  exit_code: number | null;
  signal: number | null;
  /** What a strict assert test's own process reported on its private socket; null when it did not. */
  completion: { kind: 'done' | 'raised' | 'exit' | 'strict' | 'tampered'; detail: string } | null;
  stdout: string;
  stderr: string;
  elapsed_ms: number;
}

const PYTHON = '/usr/bin/python3';
// Dropping to an unprivileged user makes RLIMIT_NPROC bite: the kernel does not enforce it for root.
const NOBODY = 65534;

export interface BubblewrapOptions {
  /**
   * The size of the private /tmp (a tmpfs: its files live in the host's memory). Without a size
   * the kernel allows half the host's RAM, so a program writing files could take that much.
   */
  readonly tmpfsBytes?: number;
  /** Host directories a toolchain reads beyond the system ones, bound read-only. */
  readonly binds?: readonly string[];
}

/**
 * The bubblewrap command line: no network but the sandbox's own loopback (`lo` of a new network
 * namespace, with an /etc/hosts naming localhost), no host files but the system's, read-only.
 *
 * With `tmpfsBytes`, everything a program can write is a tmpfs of that size: the root (so it
 * may create files anywhere outside the bound system folders, as in upstream's container, with
 * an empty /mnt), /tmp (the working directory) and /dev/shm; /dev itself is read-only. Without a
 * size the kernel would allow half the host's RAM on each.
 */
export function bubblewrapArgs(options: BubblewrapOptions = {}): string[] {
  const size = (mount: string) =>
    options.tmpfsBytes === undefined
      ? ['--tmpfs', mount]
      : ['--size', String(Math.floor(options.tmpfsBytes)), '--tmpfs', mount];
  const bind = (dirs: readonly string[]) =>
    dirs.filter(existsSync).flatMap((dir) => {
      const real = realpathSync(dir);
      return real === dir ? ['--ro-bind', dir, dir] : ['--symlink', real.replace(/^\//, ''), dir];
    });
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    ...(options.tmpfsBytes === undefined ? [] : [...size('/'), '--dir', '/mnt']),
    ...bind(['/usr', '/lib', '/lib64', '/bin', '/etc/alternatives']),
    '--ro-bind',
    sandboxHostsFile(),
    '/etc/hosts',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--remount-ro',
    '/dev',
    ...size('/dev/shm'),
    ...size('/tmp'),
    // After the tmpfs mounts, so a folder under the host's /tmp is not hidden by the sandbox's.
    ...bind(options.binds ?? []),
    '--chdir',
    '/tmp',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--setenv',
    'HOME',
    '/tmp',
    '--setenv',
    'PYTHONDONTWRITEBYTECODE',
    '1',
    '--setenv',
    'PYTHONIOENCODING',
    'utf-8',
  ];
}

let probed: boolean | undefined;

/** bwrap's absolute path: the sandbox is spawned with an empty environment, so no PATH lookup. */
export function bubblewrapPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    if (dir && existsSync(`${dir}/bwrap`)) return `${dir}/bwrap`;
  }
  return undefined;
}

/** Whether bubblewrap runs here (installed, and user namespaces allowed); checked once. */
export function bubblewrapWorks(): boolean {
  if (probed !== undefined) return probed;
  const bwrap = bubblewrapPath();
  if (!bwrap || !existsSync(PYTHON)) {
    probed = false;
    return probed;
  }
  const asNobody = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  const result = spawnSync(bwrap, [...bubblewrapArgs(), PYTHON, '-c', 'print(6*7)'], {
    encoding: 'utf8',
    timeout: 10_000,
    ...asNobody,
  });
  probed = result.status === 0 && result.stdout.trim() === '42';
  return probed;
}

/**
 * Runs all tests of one Python program in one sandboxed process, each test in a forked child
 * with its own limits. Results come back on a dedicated pipe, tagged with a nonce; stdout of the
 * program is compared with the expected output here, on the host.
 */
export async function runPythonTests(
  code: string,
  tests: readonly CodeTest[],
  limits: CodeLimits,
  isolation: PythonIsolation,
  strict: boolean,
): Promise<CodeTestResult[]> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_LIMITS.timeoutMs;
  const nonce = randomBytes(16).toString('hex');
  const job = {
    code,
    nonce,
    strict,
    tests: tests.map((t) =>
      t.kind === 'stdio' ? { kind: 'stdio', stdin: t.stdin } : { kind: 'assert', code: t.code },
    ),
    limits: {
      timeout_s: timeoutMs / 1000,
      memory_bytes: (limits.memoryMb ?? DEFAULT_LIMITS.memoryMb) * 1024 * 1024,
      output_bytes: limits.outputBytes ?? DEFAULT_LIMITS.outputBytes,
      processes: 64,
      file_bytes: 16 * 1024 * 1024,
    },
  };
  const [command, args] =
    isolation === 'bubblewrap'
      ? [
          bubblewrapPath() ?? 'bwrap',
          // The private /tmp is sized to the memory limit, so files cannot grow past it in host RAM.
          [
            ...bubblewrapArgs({ tmpfsBytes: job.limits.memory_bytes }),
            PYTHON,
            '-I',
            '-S',
            '-c',
            PYTHON_HARNESS,
          ],
        ]
      : [PYTHON, ['-I', '-S', '-c', PYTHON_HARNESS]];
  const asNobody = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  const child = spawn(command as string, args as string[], {
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    detached: false,
    env: isolation === 'bubblewrap' ? {} : { PATH: '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1' },
    ...(isolation === 'unsafe-local' ? { cwd: '/tmp' } : {}),
    ...asNobody,
  });
  const lines: HarnessLine[] = [];
  let channel = '';
  let harnessStderr = '';
  const resultPipe = child.stdio[3] as unknown as NodeJS.ReadableStream;
  resultPipe.setEncoding('utf8');
  resultPipe.on('data', (chunk: string) => {
    channel += chunk;
    let at = channel.indexOf('\n');
    while (at !== -1) {
      const line = channel.slice(0, at);
      channel = channel.slice(at + 1);
      try {
        const parsed = JSON.parse(line) as HarnessLine;
        if (parsed.nonce === nonce) lines.push(parsed);
      } catch {
        // A line that is not the harness's own cannot be trusted; it is ignored.
      }
      at = channel.indexOf('\n');
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (harnessStderr.length < 8192) harnessStderr += chunk.toString('utf8');
  });
  // The whole batch gets each test's budget plus start-up slack; then the sandbox is killed.
  const overall = setTimeout(() => child.kill('SIGKILL'), tests.length * (timeoutMs + 500) + 5000);
  const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
  (child.stdin as Writable).on('error', () => {});
  (child.stdin as Writable).end(JSON.stringify(job));
  const status = await exited;
  clearTimeout(overall);

  return tests.map((test, index) => {
    const line = lines.find((l) => l.index === index);
    if (!line) {
      return {
        index,
        status: 'error',
        reason: `the sandbox ended before this test reported (exit ${status}${harnessStderr ? `: ${harnessStderr.trim().slice(-300)}` : ''})`,
        elapsed_ms: 0,
      };
    }
    return judge(test, line, timeoutMs, strict);
  });
}

function judge(test: CodeTest, line: HarnessLine, timeoutMs: number, strict: boolean): CodeTestResult {
  const exitCode = line.signal !== null ? -line.signal : line.exit_code;
  const base = {
    index: line.index,
    stdout: line.stdout,
    stderr: line.stderr,
    elapsed_ms: line.elapsed_ms,
    ...(exitCode !== null && { exit_code: exitCode }),
  };
  switch (line.status) {
    case 'timeout':
      return { ...base, status: 'timeout', reason: `exceeded ${timeoutMs} ms` };
    case 'memory':
      return { ...base, status: 'memory', reason: 'exceeded the memory limit' };
    case 'output_limit':
      return { ...base, status: 'output_limit', reason: 'exceeded the output limit' };
    case 'error':
      if (strict && test.kind === 'assert') return { ...base, status: 'failed', reason: unfinished(line) };
      return {
        ...base,
        status: test.kind === 'assert' ? 'failed' : 'error',
        reason:
          line.signal !== null
            ? `killed by signal ${line.signal}`
            : `exited with code ${line.exit_code}: ${lastLine(line.stderr)}`,
      };
    case 'finished':
      if (test.kind === 'assert') return { ...base, status: 'passed' };
      return sameOutput(line.stdout, test.expected_stdout)
        ? { ...base, status: 'passed' }
        : { ...base, status: 'failed', reason: 'stdout differs from the expected output' };
  }
}

/** Why a strict assert test did not finish, from its own report or, lacking one, its exit. */
function unfinished(line: HarnessLine): string {
  const { completion } = line;
  switch (completion?.kind) {
    case 'raised':
      return `raised ${completion.detail || lastLine(line.stderr)}`;
    case 'exit':
      return `exited before the test finished: ${completion.detail}`;
    case 'strict':
    case 'tampered':
      return completion.detail;
    default: {
      const how = line.signal !== null ? `killed by signal ${line.signal}` : `exit code ${line.exit_code}`;
      return `exited before the test finished (${how}, without reporting that the test ran to its end)`;
    }
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
