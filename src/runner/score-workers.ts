import { startWorkerSlot } from '../core/index.js';
import type { UnparsedRecord } from '../dataset/index.js';
import type { ScoredChunk, ScoredRows, ScoreWorkerData } from './score-worker-messages.js';

/** The scoring workers of `score --workers`: each chunk goes to the worker with the fewest in flight. */
export interface ScoreWorkers {
  /** The chunk's rows scored in input order; rejects if its worker stopped (it is replaced). */
  score(records: readonly UnparsedRecord[]): Promise<ScoredRows>;
  close(): Promise<void>;
}

/** `script`: the worker's entry (default: the scoring worker beside this file); tests give one that stops on demand. */
export function startScoreWorkers(
  count: number,
  data: ScoreWorkerData,
  script = new URL('./score-worker.js', import.meta.url),
): ScoreWorkers {
  let closed = false;
  let nextChunk = 0;
  // A stopped worker's chunks fail (the caller records their rows as failed); its replacement
  // takes the later ones.
  const slots = Array.from({ length: count }, () =>
    startWorkerSlot<ScoredChunk, ScoredRows>({
      script,
      workerData: data,
      replies: (reply) => [
        'rows' in reply ? { id: reply.chunk, value: reply.rows } : { id: reply.chunk, error: reply.error },
      ],
      stopped: 'a scoring worker stopped',
      closed: () => closed,
    }),
  );
  return {
    score(records) {
      const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const chunk = nextChunk++;
      return new Promise((resolve, reject) => {
        slot.pending.set(chunk, { resolve, reject });
        slot.worker.postMessage({ chunk, records });
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
