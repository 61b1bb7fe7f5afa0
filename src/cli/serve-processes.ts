import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { InvalidArgumentError } from 'commander';
import type { RunSummary } from '../runner/index.js';
import type { SourceStat } from '../store/index.js';

/**
 * `serve --processes N`: N copies of the server sharing one port (node's cluster module; the
 * primary hands each new connection to the next process), so HTTP, JSON, verification and the
 * store's writes all scale with cores — a worker-thread pool moves only verification off the one
 * event loop that still parses every request. The primary owns the store run: it creates it,
 * passes its id down, gathers each process's summary at shutdown and finishes it. With a SQLite
 * store each copy appends its results to a shard file of its own (on a thread), so the copies
 * write on as many cores as they run on, and the primary merges the shards into the store file
 * behind them. SQLite takes one writer at a time: copies writing the store file themselves spent
 * their time waiting for its lock, and the primary as the file's one writer capped the server at
 * what one core inserts (BENCHMARKS.md).
 */

/** The environment variable a serve process finds its store run id in ('' without a store). */
const RUN_ENV = 'RK_SERVE_RUN';
/** The folder a serve process puts its shard in ('' where it writes the store itself). */
const SHARDS_ENV = 'RK_SERVE_SHARDS';

type ChildMessage =
  | { readonly type: 'rk-serve-listening'; readonly url: string }
  | {
      readonly type: 'rk-serve-summary';
      readonly summary: RunSummary;
      /** The per-source statistics of what it saved, as the store keeps them at a run's finish. */
      readonly sources: readonly SourceStat[] | undefined;
    };

/** What one process scored and saved, handed to the primary as it ends. */
export type ProcessSummary = Omit<Extract<ChildMessage, { type: 'rk-serve-summary' }>, 'type'>;

/** `--processes`: a positive integer, or `auto` for one per core. */
export function parseProcesses(value: string): number {
  if (value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError(`--processes expects a positive integer or "auto", got "${value}".`);
  }
  return n;
}

/**
 * This process is one of a primary's serve processes: its store run id, and the folder of the
 * run's shards where it appends its results to a shard of its own; undefined if not.
 */
export function serveProcessRun():
  | { readonly runId: string | undefined; readonly shardsFolder: string | undefined }
  | undefined {
  if (!cluster.isWorker) return undefined;
  const runId = process.env[RUN_ENV];
  const shardsFolder = process.env[SHARDS_ENV];
  return {
    runId: runId === '' ? undefined : runId,
    shardsFolder: shardsFolder === '' ? undefined : shardsFolder,
  };
}

const send = (message: ChildMessage) =>
  new Promise<void>((resolve) => {
    if (!process.send) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });

/** Tells the primary where this process listens. */
export const reportListening = (url: string) => send({ type: 'rk-serve-listening', url });

/** Hands this process's summary to the primary and lets the process end. */
export async function reportSummary(summary: ProcessSummary): Promise<void> {
  await send({ type: 'rk-serve-summary', ...summary });
  process.disconnect?.();
}

export interface PrimaryOptions {
  readonly processes: number;
  /** The store run the processes write to; undefined without a store. */
  readonly runId: string | undefined;
  /**
   * Where the processes append their results to shards of their own (a SQLite store); without it
   * each process writes the store itself (PostgreSQL takes many writers).
   */
  readonly shardsFolder?: string;
  /** Once every process listens: print the URL and the banner. */
  readonly onListening: (url: string) => void;
  readonly log: (line: string) => void;
}

/**
 * Starts the processes, restarts one that dies while serving (what it acknowledged is committed
 * to its shard or the store: answers go out after the commit), and on SIGTERM / SIGINT asks each to drain, then
 * resolves with their summaries. Rejects if a process exits before the server is listening.
 */
export async function runServePrimary(options: PrimaryOptions): Promise<ProcessSummary[]> {
  cluster.setupPrimary({ exec: process.argv[1] as string, args: process.argv.slice(2) });
  const summaries: ProcessSummary[] = [];
  let stopping = false;
  let listening = false;
  const fork = (): Worker => {
    const worker = cluster.fork({ [RUN_ENV]: options.runId ?? '', [SHARDS_ENV]: options.shardsFolder ?? '' });
    worker.on('message', (message: ChildMessage) => {
      if (message?.type === 'rk-serve-summary')
        summaries.push({ summary: message.summary, sources: message.sources });
    });
    return worker;
  };

  const workers = new Set<Worker>();
  const started = new Promise<string>((resolve, reject) => {
    let ready = 0;
    const start = () => {
      const worker = fork();
      workers.add(worker);
      worker.on('message', (message: ChildMessage) => {
        if (message?.type !== 'rk-serve-listening') return;
        ready++;
        if (ready === options.processes && !listening) {
          listening = true;
          resolve(message.url);
        }
      });
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        if (stopping) return;
        if (!listening) {
          stopping = true;
          for (const other of workers) other.process.kill('SIGTERM');
          reject(new Error(`a serve process exited before listening (${signal ?? `exit code ${code}`})`));
          return;
        }
        options.log(`a serve process exited (${signal ?? `exit code ${code}`}); starting another`);
        start();
      });
    };
    for (let i = 0; i < options.processes; i++) start();
  });
  options.onListening(await started);

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  stopping = true;
  options.log(`${signal}: asking ${workers.size} process(es) to finish their requests in flight`);
  await Promise.all(
    [...workers].map(
      (worker) =>
        new Promise<void>((resolve) => {
          worker.once('exit', () => resolve());
          worker.process.kill('SIGTERM');
        }),
    ),
  );
  return summaries;
}
