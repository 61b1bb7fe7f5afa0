import type { RewardResult } from '../core/index.js';
import type { Store } from '../store/index.js';
import { readOutputResults } from './output-results.js';

/** Results saved together while reconciling: few transactions, little memory. */
const RECONCILE_BATCH = 256;

/**
 * Stores the results an output file holds and the run's store lacks, read back from the output's
 * lines: a run killed outright (SIGKILL, a lost machine) has written rows whose store batch never
 * committed, and resume skips every id in the output. Resolves with the results stored; each line
 * that cannot be stored is warned about (the run then cannot finish: its counts disagree).
 */
export async function storeOutputRows(options: {
  readonly store: Store;
  readonly runId: string;
  readonly output: string;
  /** The ids in the output, as resume read them. */
  readonly done: ReadonlySet<string>;
  readonly warn: (message: string) => void;
}): Promise<number> {
  const { store, runId, output, done, warn } = options;
  const stored = await store.completedIds(runId);
  const missing = new Set<string>();
  for (const id of done) if (!stored.has(id)) missing.add(id);
  if (missing.size === 0) return 0;
  let saved = 0;
  let batch: RewardResult[] = [];
  const save = async () => {
    await store.saveResults(runId, batch);
    saved += batch.length;
    batch = [];
  };
  for await (const read of readOutputResults(output, missing)) {
    if (read.problem !== undefined) {
      warn(`${read.problem}; it cannot be stored: fix or delete the line, then resume again`);
      continue;
    }
    batch.push(read.result);
    if (batch.length >= RECONCILE_BATCH) await save();
  }
  if (batch.length > 0) await save();
  warn(
    `stored ${saved} result${saved === 1 ? '' : 's'} of ${output} that run ${runId} lacked in the store (a run killed before saving them, or a store other than the one the output was scored with)`,
  );
  return saved;
}
