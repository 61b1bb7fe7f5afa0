import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { errorMessage } from '../core/index.js';
import type { RunSummary } from '../runner/index.js';
import { createWriteBehind } from '../server/write-behind.js';
import type { SqliteResultRow } from '../store/index.js';

/**
 * `serve --processes N`: N copies of the server sharing one port (node's cluster module; the
 * primary hands each new connection to the next process), so HTTP, JSON, verification and the
 * store's writes all scale with cores — a worker-thread pool moves only verification off the one
 * event loop that still parses every request. The primary owns the store run: it creates it,
 * passes its id down, gathers each process's summary at shutdown and finishes it. With a SQLite
 * store the primary is also the file's one writer: the processes encode their results and send
 * the rows over IPC, and the primary saves what arrives from all of them in one transaction.
 * SQLite takes one writer at a time, so processes writing the file themselves spent their time
 * waiting for its lock (0.53× the in-process evaluator at 8 processes, BENCHMARKS.md).
 */

/** The environment variable a serve process finds its store run id in ('' without a store). */
const RUN_ENV = 'RK_SERVE_RUN';
/** Set to '1' when the primary writes the processes' results ('' when each writes its own). */
const WRITER_ENV = 'RK_SERVE_PRIMARY_WRITES';

type ChildMessage =
  | { readonly type: 'rk-serve-listening'; readonly url: string }
  | { readonly type: 'rk-serve-summary'; readonly summary: RunSummary }
  | { readonly type: 'rk-serve-save'; readonly id: number; readonly rows: readonly SqliteResultRow[] };

/** The saves (by the ids a process gave them) that one commit acknowledges, or that failed with `error`. */
type PrimaryMessage = {
  readonly type: 'rk-serve-saved';
  readonly ids: readonly number[];
  readonly error?: string;
};

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
 * This process is one of a primary's serve processes: its store run id, and whether it saves its
 * results through the primary; undefined if not.
 */
export function serveProcessRun():
  | { readonly runId: string | undefined; readonly primaryWrites: boolean }
  | undefined {
  if (!cluster.isWorker) return undefined;
  const runId = process.env[RUN_ENV];
  return { runId: runId === '' ? undefined : runId, primaryWrites: process.env[WRITER_ENV] === '1' };
}

const send = (message: ChildMessage) =>
  new Promise<void>((resolve) => {
    if (!process.send) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });

/** Tells the primary where this process listens. */
export const reportListening = (url: string) => send({ type: 'rk-serve-listening', url });

const saving = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
let nextSave = 0;
let listeningForSaves = false;
const listenForSaves = () => {
  if (listeningForSaves) return;
  listeningForSaves = true;
  process.on('message', (message: PrimaryMessage) => {
    if (message?.type !== 'rk-serve-saved') return;
    for (const id of message.ids) {
      const pending = saving.get(id);
      saving.delete(id);
      if (message.error === undefined) pending?.resolve();
      else pending?.reject(new Error(`the primary could not save the results: ${message.error}`));
    }
  });
  process.once('disconnect', () => {
    for (const pending of saving.values()) pending.reject(new Error('the primary process is gone'));
    saving.clear();
  });
};

/**
 * Saves rows through the primary, the store's one writer: resolves once the primary's
 * transaction holding them has committed, so an answer sent after it is durable.
 */
export function saveThroughPrimary(rows: readonly SqliteResultRow[]): Promise<void> {
  listenForSaves();
  const id = nextSave++;
  return new Promise<void>((resolve, reject) => {
    if (!process.connected || !process.send) {
      reject(new Error('the primary process is gone'));
      return;
    }
    saving.set(id, { resolve, reject });
    process.send({ type: 'rk-serve-save', id, rows } satisfies ChildMessage);
  });
}

/** Hands this process's summary to the primary and lets the process end. */
export async function reportSummary(summary: RunSummary): Promise<void> {
  await send({ type: 'rk-serve-summary', summary });
  process.disconnect?.();
}

export interface PrimaryOptions {
  readonly processes: number;
  /** The store run the processes write to; undefined without a store. */
  readonly runId: string | undefined;
  /**
   * Saves the processes' rows when the primary is the store's one writer (SQLite); without it
   * each process writes the store itself (PostgreSQL takes many writers).
   */
  readonly saveRows?: (rows: readonly SqliteResultRow[]) => Promise<void>;
  /** Once every process listens: print the URL and the banner. */
  readonly onListening: (url: string) => void;
  readonly log: (line: string) => void;
}

/**
 * Starts the processes, restarts one that dies while serving (what it acknowledged is committed:
 * answers go out after the store's commit), and on SIGTERM / SIGINT asks each to drain, then
 * resolves with their summaries. Rejects if a process exits before the server is listening.
 */
export async function runServePrimary(options: PrimaryOptions): Promise<RunSummary[]> {
  // Structured clone instead of JSON: rows of strings cross without being escaped and parsed.
  cluster.setupPrimary({
    exec: process.argv[1] as string,
    args: process.argv.slice(2),
    serialization: 'advanced',
  });
  const summaries: RunSummary[] = [];
  let stopping = false;
  let listening = false;
  const saveRows = options.saveRows;
  // Rows from every process that arrive while a transaction runs go into the next one.
  const writer =
    saveRows && createWriteBehind<SqliteResultRow>(saveRows, { maxBatch: 8192, maxPending: 262_144 });
  const fork = (): Worker => {
    const worker = cluster.fork({ [RUN_ENV]: options.runId ?? '', [WRITER_ENV]: writer ? '1' : '' });
    const answer = (reply: PrimaryMessage) => {
      if (worker.isConnected()) worker.send(reply);
    };
    // One message acknowledges all of this process's saves that a commit covered: the saves of a
    // transaction resolve in one run of microtasks, and a message per save cost the primary, the
    // file's one writer, a tenth of its time in pipe writes.
    let acknowledged: number[] = [];
    const acknowledge = (id: number) => {
      acknowledged.push(id);
      if (acknowledged.length > 1) return;
      queueMicrotask(() => {
        answer({ type: 'rk-serve-saved', ids: acknowledged });
        acknowledged = [];
      });
    };
    worker.on('message', (message: ChildMessage) => {
      if (message?.type === 'rk-serve-summary') summaries.push(message.summary);
      if (message?.type === 'rk-serve-save' && writer) {
        writer.save(message.rows).then(
          () => acknowledge(message.id),
          (error: unknown) =>
            answer({ type: 'rk-serve-saved', ids: [message.id], error: errorMessage(error) }),
        );
      }
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
  await writer?.flush();
  return summaries;
}
