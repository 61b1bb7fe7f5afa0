import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { z } from 'zod';
import { bubblewrapArgs, bubblewrapPath } from './python-runner.js';
import { RUN_CODE_SUPERVISOR } from './run-code-supervisor.js';

/** One command the supervisor runs inside the sandbox. */
export interface SandboxStep {
  readonly argv: readonly string[];
  readonly timeoutS: number;
  /** The whole sandbox's resident memory plus its tmpfs, bytes; over it the step is killed. */
  readonly memoryBytes: number;
  /** RLIMIT_AS for the step, where the runtime tolerates one. */
  readonly addressSpaceBytes: number | null;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin?: string;
}

export interface SandboxJob {
  /** Working-directory path → base64 content. */
  readonly files: Readonly<Record<string, string>>;
  /** Run in order; a step that does not finish with exit 0 ends the job. */
  readonly steps: readonly SandboxStep[];
  readonly fetchFiles: readonly string[];
  /** The size of the working directory's tmpfs, bytes. */
  readonly tmpfsBytes: number;
  readonly outputBytes: number;
  readonly binds: readonly string[];
}

const StepReportSchema = z.object({
  status: z.enum(['finished', 'timeout', 'memory', 'error']),
  exit_code: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  elapsed_s: z.number(),
});
export type StepReport = z.infer<typeof StepReportSchema>;

const ReportSchema = z.object({
  nonce: z.string(),
  steps: z.array(StepReportSchema),
  files: z.record(z.string(), z.string()),
  /** What the supervisor declined to do (a fetch of a symlink out of the working directory). */
  notes: z.array(z.string()),
  error: z.string().nullable(),
});
export type SandboxReport = Omit<z.infer<typeof ReportSchema>, 'nonce'>;

// As root the sandbox drops to nobody, so RLIMIT_NPROC applies (the kernel exempts root).
const NOBODY = 65534;

/**
 * What a sandbox is started with before its job is known: the size of its tmpfs (the job's memory
 * limit, so files can never outgrow it) and the host directories bound into it. Two jobs of the
 * same shape can use sandboxes started alike; nothing else in the command line depends on the job.
 */
export interface SandboxShape {
  readonly tmpfsBytes: number;
  readonly binds: readonly string[];
}

export const shapeKey = (shape: SandboxShape): string => `${shape.tmpfsBytes}|${shape.binds.join('|')}`;

/**
 * A bubblewrap sandbox whose supervisor has started and waits on stdin for its one job. It runs
 * exactly one job, then exits: nothing of a job outlives it, so no state passes between jobs.
 */
export interface StartedSandbox {
  readonly key: string;
  /** When bubblewrap was spawned (`performance.now()`). */
  readonly startedAt: number;
  /** Whether it can still take its job (not given one yet, not released, not exited). */
  usable(): boolean;
  /**
   * Lets a sandbox that was given no job go: its stdin closes, and the supervisor, reading no job,
   * exits. (A kill in the instant after the start could orphan bubblewrap's init before
   * `--die-with-parent` ties it to us; an end-of-file reaches the supervisor whenever it starts.)
   */
  release(): void;
  /** Resolves with bubblewrap's exit status once the sandbox is gone. */
  readonly closed: Promise<number | null>;
  /** Runs the job (see `runInBubblewrap`); a second call rejects. */
  run(job: SandboxJob, signal?: AbortSignal): Promise<SandboxReport>;
}

/** Starts bubblewrap and the supervisor for a job of `shape`; the job is given later. */
export function startSandbox(shape: SandboxShape): StartedSandbox {
  const args = [
    ...bubblewrapArgs({ tmpfsBytes: shape.tmpfsBytes, binds: shape.binds }),
    '/usr/bin/python3',
    '-I',
    '-S',
    '-c',
    RUN_CODE_SUPERVISOR,
  ];
  const asNobody = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  const startedAt = performance.now();
  const child = spawn(bubblewrapPath() ?? 'bwrap', args, {
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    env: {},
    ...asNobody,
  });
  let channel = '';
  let stderr = '';
  const resultPipe = child.stdio[3] as unknown as NodeJS.ReadableStream;
  resultPipe.setEncoding('utf8');
  // The report is one line; its end wakes the job, which need not wait for the sandbox's teardown.
  let onLine: (() => void) | undefined;
  resultPipe.on('data', (chunk: string) => {
    if (channel.length < 64 * 1024 * 1024) channel += chunk;
    if (chunk.includes('\n')) onLine?.();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 8192) stderr += chunk.toString('utf8');
  });
  let exited = false;
  let taken = false;
  let killedFor: string | undefined;
  const closed = new Promise<number | null>((resolve) => {
    // A spawn that fails (no bwrap) shows as a sandbox that exited before reporting.
    child.on('error', (error) => {
      if (stderr.length < 8192) stderr += String(error);
      exited = true;
      resolve(null);
    });
    child.on('close', (status) => {
      exited = true;
      resolve(status);
    });
  });
  const stdin = child.stdin as Writable;
  stdin.on('error', () => {});
  // Only once the job is written: by then bubblewrap is set up, or sets up and runs the job under
  // the clock the kill then cuts short.
  const kill = (why: string) => {
    killedFor ??= why;
    child.kill('SIGKILL');
  };
  const release = (why: string) => {
    killedFor ??= why;
    stdin.end();
  };
  const key = shapeKey(shape);
  return {
    key,
    startedAt,
    usable: () => !exited && !taken && killedFor === undefined,
    release: () => release('the sandbox was released before its job'),
    closed,
    async run(job, signal) {
      if (taken) throw new Error('a sandbox runs one job only');
      taken = true;
      if (key !== shapeKey({ tmpfsBytes: job.tmpfsBytes, binds: job.binds })) {
        // Its tmpfs or binds would not be the job's: refused, never run.
        release('the sandbox was started for another shape');
        throw new Error(`a sandbox started for ${key} was given a job of another shape`);
      }
      if (signal?.aborted) {
        release('aborted');
        throw signal.reason;
      }
      const nonce = randomBytes(16).toString('hex');
      // Every step's budget plus start-up and file transfer slack; past it the sandbox is broken.
      const budgetMs = job.steps.reduce((ms, step) => ms + step.timeoutS * 1000 + 1000, 10_000);
      const overall = setTimeout(() => kill(`the sandbox overran its ${budgetMs} ms budget`), budgetMs);
      const onAbort = () => kill('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      stdin.end(jobPayload(job, nonce));
      let status: number | null = null;
      try {
        const reported = new Promise<'reported'>((resolve) => {
          onLine = () => resolve('reported');
        });
        const first = await Promise.race([closed, reported]);
        // The supervisor killed every process of the job before it reported; what is left of the
        // sandbox (the supervisor's exit, bubblewrap's init and mounts) is torn down behind the answer.
        if (first === 'reported') child.kill('SIGKILL');
        else status = first;
      } finally {
        clearTimeout(overall);
        signal?.removeEventListener('abort', onAbort);
      }
      if (signal?.aborted) throw signal.reason;
      const line = channel.split('\n').find((l) => l.includes(nonce));
      const parsed = line === undefined ? undefined : ReportSchema.safeParse(safeJson(line));
      if (!parsed?.success || parsed.data.nonce !== nonce) {
        const why =
          killedFor ??
          (status === null
            ? 'the sandbox reported no readable answer'
            : `the sandbox exited with ${status} before reporting`);
        throw new Error(`${why}${stderr ? `: ${stderr.trim().slice(-500)}` : ''}`);
      }
      const { nonce: _, ...report } = parsed.data;
      return report;
    },
  };
}

/** The supervisor's job: what it writes, runs and fetches, under which limits, and the nonce. */
function jobPayload(job: SandboxJob, nonce: string): string {
  return JSON.stringify({
    nonce,
    files: job.files,
    fetch_files: job.fetchFiles,
    limits: {
      output_bytes: job.outputBytes,
      processes: 64,
      file_bytes: Math.min(job.tmpfsBytes, 256 * 1024 * 1024),
    },
    steps: job.steps.map((step) => ({
      argv: step.argv,
      timeout_s: step.timeoutS,
      memory_bytes: step.memoryBytes,
      address_space_bytes: step.addressSpaceBytes,
      env: { PATH: '/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8', ...step.env },
      stdin: step.stdin ?? '',
    })),
  });
}

/**
 * Runs one job in a fresh bubblewrap sandbox under the supervisor (`run-code-supervisor.ts`) and
 * returns its report: in `sandbox`, one started ahead for this job's shape (from a pool), or in
 * one started now. Rejects when the sandbox itself fails (bubblewrap cannot start, the supervisor
 * dies or overruns every step's budget) and when `signal` aborts, which kills it.
 */
export function runInBubblewrap(
  job: SandboxJob,
  signal?: AbortSignal,
  sandbox?: StartedSandbox,
): Promise<SandboxReport> {
  if (signal?.aborted) {
    sandbox?.release();
    return Promise.reject(signal.reason);
  }
  return (sandbox ?? startSandbox({ tmpfsBytes: job.tmpfsBytes, binds: job.binds })).run(job, signal);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
