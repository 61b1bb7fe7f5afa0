import { Worker } from 'node:worker_threads';
import { RewardKitError } from './errors.js';
import { workerEntry } from './worker-entry.js';

/** One answer in a worker's message: the value for the request `id`, or the message of the bug that stopped it. */
export type SlotReply<R> = { readonly id: number } & ({ readonly value: R } | { readonly error: string });

export interface WorkerSlotOptions<M, R> {
  /** The compiled script (`workerEntry` finds its source under vitest). */
  readonly script: URL;
  readonly workerData: unknown;
  /** The answers one message of the worker carries. */
  readonly replies: (message: M) => Iterable<SlotReply<R>>;
  /** The error a request gets when its worker stops (`exit code N` is appended). */
  readonly stopped: string;
  /** Whether the pool is closed: a worker that stops then is not replaced. */
  readonly closed: () => boolean;
  /** Called with each new worker (a pool that must not keep the process alive unrefs it). */
  readonly started?: (worker: Worker) => void;
}

/**
 * A worker thread in a slot of a pool: requests wait in `pending` by id until the worker answers.
 * When the worker stops, its pending requests fail with `stopped` and a new worker takes the
 * same slot, so requests sent later and their answers still meet in one map.
 */
export interface WorkerSlot<R> {
  readonly worker: Worker;
  readonly pending: Map<number, { resolve: (value: R) => void; reject: (error: Error) => void }>;
}

export function startWorkerSlot<M, R>(options: WorkerSlotOptions<M, R>): WorkerSlot<R> {
  const slot: { worker?: Worker; pending: WorkerSlot<R>['pending'] } = { pending: new Map() };
  const attach = () => {
    const entry = workerEntry(options.script);
    const worker = new Worker(entry.url, { workerData: options.workerData, execArgv: [...entry.execArgv] });
    slot.worker = worker;
    worker.on('message', (message: M) => {
      for (const reply of options.replies(message)) {
        const request = slot.pending.get(reply.id);
        if (!request) continue;
        slot.pending.delete(reply.id);
        if ('value' in reply) request.resolve(reply.value);
        else request.reject(new RewardKitError('RK_INTERNAL', reply.error));
      }
    });
    const fail = (error: Error) => {
      for (const request of slot.pending.values()) request.reject(error);
      slot.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      fail(new RewardKitError('RK_INTERNAL', `${options.stopped} (exit code ${code})`));
      if (!options.closed()) attach();
    });
    options.started?.(worker);
  };
  attach();
  return slot as WorkerSlot<R>;
}
