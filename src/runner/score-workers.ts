import { Worker } from 'node:worker_threads';
import { RewardKitError } from '../core/index.js';
import type { UnparsedRecord } from '../dataset/index.js';
import type { ScoredChunk, ScoredRow, ScoreWorkerData } from './score-worker-messages.js';

/** The scoring workers of `score --workers`: each chunk goes to the worker with the fewest in flight. */
export interface ScoreWorkers {
  /** The chunk's rows scored in input order; rejects if its worker stopped (it is replaced). */
  score(records: readonly UnparsedRecord[]): Promise<readonly ScoredRow[]>;
  close(): Promise<void>;
}

interface Thread {
  worker: Worker;
  readonly chunks: Map<number, { resolve: (rows: readonly ScoredRow[]) => void; reject: (e: Error) => void }>;
}

/** `script`: the worker's entry (default: the scoring worker beside this file); tests give one that stops on demand. */
export function startScoreWorkers(
  count: number,
  data: ScoreWorkerData,
  script = new URL('./score-worker.js', import.meta.url),
): ScoreWorkers {
  let closed = false;
  let nextChunk = 0;
  // A stopped worker's chunks fail (the caller records their rows as failed) and a new worker
  // takes its place in the same thread slot, so later chunks and their replies meet again.
  const attach = (thread: Thread) => {
    const worker = new Worker(script, { workerData: data });
    thread.worker = worker;
    worker.on('message', (reply: ScoredChunk) => {
      const pending = thread.chunks.get(reply.chunk);
      thread.chunks.delete(reply.chunk);
      if ('rows' in reply) pending?.resolve(reply.rows);
      else pending?.reject(new RewardKitError('RK_INTERNAL', reply.error));
    });
    const fail = (error: Error) => {
      for (const pending of thread.chunks.values()) pending.reject(error);
      thread.chunks.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      fail(new RewardKitError('RK_INTERNAL', `a scoring worker stopped (exit code ${code})`));
      if (!closed) attach(thread);
    });
  };
  const start = (): Thread => {
    const thread = { chunks: new Map() } as Omit<Thread, 'worker'> as Thread;
    attach(thread);
    return thread;
  };
  const threads = Array.from({ length: count }, start);
  return {
    score(records) {
      const thread = threads.reduce((a, b) => (b.chunks.size < a.chunks.size ? b : a));
      const chunk = nextChunk++;
      return new Promise((resolve, reject) => {
        thread.chunks.set(chunk, { resolve, reject });
        thread.worker.postMessage({ chunk, records });
      });
    },
    async close() {
      closed = true;
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
