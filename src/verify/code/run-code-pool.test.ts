import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { createCodeSandbox } from './code-sandbox.js';
import { createSandboxPool, SHAPES } from './run-code-pool.js';
import { runInBubblewrap, type SandboxJob } from './run-code-runner.js';
import { cBattery, pythonBattery } from './test-utils/run-code-batteries.js';
import { escapeBattery, hasBwrap, present } from './test-utils/run-code-battery.js';

const MB = 1024 * 1024;

/** Every process below `pid` (children, grandchildren…), with its command line. */
function descendants(pid: number): { pid: number; command: string }[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name may hold spaces and brackets; the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone while we read.
    }
  }
  const found: { pid: number; command: string }[] = [];
  const visit = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      let command = '';
      try {
        command = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {
        // Gone while we read.
      }
      found.push({ pid: child, command });
      visit(child);
    }
  };
  visit(pid);
  return found;
}

// The tmpfs sizes of this file's sandboxes are its own (a few pages past whole megabytes, by the
// test process's id), so a sandbox of this file is found anywhere on the host: one that escaped
// its parent (an orphan of a kill) is no longer our descendant.
const OWN_BYTES = 4096 * ((process.pid % 255) + 1);
const ownSizes = new Set<string>();

/** This file's bubblewrap processes, anywhere on the host. */
function ownSandboxes(): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const at = argv.indexOf('--size');
      if (argv[0]?.endsWith('bwrap') && at !== -1 && ownSizes.has(argv[at + 1] ?? ''))
        found.push(Number(name));
    } catch {
      // Gone while we read.
    }
  }
  return found;
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

const bashJob = (code: string, memoryMb = 128): SandboxJob => {
  const tmpfsBytes = memoryMb * MB + OWN_BYTES;
  ownSizes.add(String(tmpfsBytes));
  return {
    files: { 'main.sh': b64(code) },
    steps: [
      {
        argv: ['/bin/bash', 'main.sh'],
        timeoutS: 5,
        memoryBytes: memoryMb * MB,
        addressSpaceBytes: null,
        env: {},
      },
    ],
    fetchFiles: [],
    tmpfsBytes,
    outputBytes: MB,
    binds: [],
  };
};

test('should refuse a pool size that is not a whole number ≥ 0 before anything starts', () => {
  for (const sandboxPool of [-1, 1.5, Number.NaN]) {
    expect(() => createCodeSandbox({ sandboxPool })).toThrow(
      expect.objectContaining({ code: 'RK_USAGE', message: expect.stringMatching(/sandboxPool/) }),
    );
  }
});

describe.skipIf(!hasBwrap)('a pool of sandboxes started ahead of their jobs', () => {
  test('should give every job a sandbox of its own: no file or process of an earlier job is left', async () => {
    const pool = createSandboxPool(1);
    try {
      const first = pool.take(bashJob(''));
      // The job leaves a file in the working directory and a process that left its session.
      const left = await runInBubblewrap(
        bashJob('echo secret > left.txt; setsid sleep 30 >/dev/null 2>&1 < /dev/null & echo started'),
        undefined,
        first,
      );
      expect(left.steps[0]).toMatchObject({ status: 'finished', exit_code: 0, stdout: 'started\n' });
      await waitFor(() => pool.idle() === 1, 'the pool to refill once the job ended');
      const asked = performance.now();
      const second = pool.take(bashJob(''));
      // Started before it was asked for: the pool's, not a cold start.
      expect(second.startedAt).toBeLessThan(asked);
      expect(second).not.toBe(first);
      const probe = await runInBubblewrap(
        bashJob(
          'ls -A; for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline 2>/dev/null; echo; done | grep -c "^sleep 3[0]" || true',
        ),
        undefined,
        second,
      );
      expect(probe.steps[0]).toMatchObject({ status: 'finished', exit_code: 0 });
      // Only the job's own main.sh, and no `sleep 30` anywhere in its PID namespace.
      expect(probe.steps[0]?.stdout).toBe('main.sh\n0\n');
      expect(descendants(process.pid).some((p) => p.command === 'sleep 30')).toBe(false);
      // A used sandbox takes no second job.
      await expect(runInBubblewrap(bashJob('echo again'), undefined, second)).rejects.toThrow(/one job only/);
    } finally {
      await pool.close();
    }
  });

  test('should refill when a job ends, up to its size per tmpfs size', async () => {
    const pool = createSandboxPool(2);
    const used = async (sandbox: ReturnType<typeof pool.take>) => {
      sandbox.release();
      await sandbox.closed;
    };
    try {
      expect(pool.idle()).toBe(0);
      const a = pool.take(bashJob('', 128));
      // Nothing starts beside the job: the pool refills when it has ended.
      expect(pool.idle()).toBe(0);
      await used(a);
      await waitFor(() => pool.idle() === 2, 'the pool to refill');
      const asked = performance.now();
      const b = pool.take(bashJob('', 128));
      expect(b.startedAt).toBeLessThan(asked);
      expect(pool.idle()).toBe(1);
      await used(b);
      await waitFor(() => pool.idle() === 2, 'the pool to refill');
      // A job of another memory limit never gets a sandbox whose tmpfs was sized for 128 MB.
      const other = pool.take(bashJob('', 64));
      expect(other.key).not.toBe(a.key);
      await expect(runInBubblewrap(bashJob('echo x', 128), undefined, other)).rejects.toThrow(
        /another shape/,
      );
      await other.closed;
      // Both shapes stay, `size` each: a mix of limits does not evict one another.
      await waitFor(() => pool.idle() === 4, 'the pool to hold both shapes');
    } finally {
      await pool.close();
    }
  });

  test('should keep idle sandboxes for at most SHAPES shapes, the oldest giving way', async () => {
    const pool = createSandboxPool(1);
    const sizes = Array.from({ length: SHAPES + 1 }, (_, i) => 16 + i);
    try {
      for (const [i, mb] of sizes.entries()) {
        const s = pool.take(bashJob('', mb));
        s.release();
        await s.closed;
        await waitFor(() => pool.idle() === Math.min(i + 1, SHAPES), 'the pool to refill');
      }
      // The 16 MB shape, the oldest, gave way: taking it again is a cold start.
      const asked = performance.now();
      const cold = pool.take(bashJob('', 16));
      const warm = performance.now();
      const pooled = pool.take(bashJob('', sizes.at(-1) as number));
      cold.release();
      pooled.release();
      expect(cold.startedAt).toBeGreaterThanOrEqual(asked);
      expect(pooled.startedAt).toBeLessThan(warm);
    } finally {
      await pool.close();
    }
  });

  test('should kill its idle sandboxes on close, leaving no process behind', async () => {
    const pool = createSandboxPool(3);
    const taken = pool.take(bashJob(''));
    taken.release();
    await taken.closed;
    await waitFor(() => pool.idle() === 3 && ownSandboxes().length >= 3, 'the idle sandboxes to start');
    await pool.close();
    expect(pool.idle()).toBe(0);
    // Everything this file started is gone from the host, released ones and orphans included.
    await waitFor(() => ownSandboxes().length === 0, 'every sandbox process to exit');
  });

  test('should kill a pooled sandbox whose job is aborted', async () => {
    const sandbox = createCodeSandbox({ sandboxPool: 1, limits: { memoryMb: 128 } });
    try {
      // The first run leaves an idle sandbox behind; the second takes it.
      await sandbox.runCode({ code: 'print(1)', language: 'python' });
      const stop = new AbortController();
      const running = sandbox.runCode(
        { code: 'open("started", "w").close()\nwhile True: pass', language: 'python', run_timeout: 20 },
        stop.signal,
      );
      await waitFor(
        () => descendants(process.pid).some((p) => p.command.endsWith('main.py')),
        'the program to run',
      );
      stop.abort('client gone');
      await expect(running).rejects.toBe('client gone');
      await waitFor(
        () => !descendants(process.pid).some((p) => p.command.endsWith('main.py')),
        'the program to be killed',
      );
    } finally {
      await sandbox.close();
    }
    await waitFor(() => descendants(process.pid).length === 0, 'every sandbox process to exit');
  });
});

// The limits of a fresh sandbox hold in a pooled one: the whole battery, memory and time included.
const pooled = createCodeSandbox({ limits: { memoryMb: 256 }, sandboxPool: 2 });
afterAll(() => pooled.close());
describe.skipIf(!present('python') || !present('c'))('the escape battery in pooled sandboxes', () => {
  escapeBattery(pooled, [
    ['python', pythonBattery],
    ['c', cBattery],
  ]);
});
