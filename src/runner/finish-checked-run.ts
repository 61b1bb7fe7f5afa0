import { RewardKitError } from '../core/index.js';
import type { RunTotals, SourceStat, Store } from '../store/index.js';

/**
 * Ends a run in the store. It is marked `finished` only when the store holds as many of its
 * results as the output does; otherwise it is left `interrupted` (a resume reconciles it again)
 * and an `RK_STORE` error says so, with both counts: a run never claims rows it lost. A finished
 * run's summary also keeps the store's totals over every session (`stored`), which `runs list`
 * shows: a resumed run's own counts cover only its last session.
 */
export async function finishCheckedRun(
  store: Store,
  runId: string,
  options: {
    readonly summary: unknown;
    readonly interrupted: boolean;
    /** Results in the output: those there before this session and those it wrote. */
    readonly outputRows: number;
    /** Where the output went, for the message. */
    readonly outputName: string;
    readonly sources: readonly SourceStat[] | undefined;
  },
): Promise<void> {
  const { summary, interrupted, outputRows, outputName, sources } = options;
  if (interrupted) {
    await store.finishRun(runId, summary, 'interrupted');
    return;
  }
  const totals = await store.runTotals(runId);
  const stored = totals.results;
  if (stored === outputRows) {
    await store.finishRun(runId, withStoredTotals(summary, totals), 'finished', sources);
    return;
  }
  await store.finishRun(runId, summary, 'interrupted');
  const fix =
    stored < outputRows
      ? 'run the same command again to store what is missing'
      : 'the store has results the output lacks (did the input lose rows since the run began?); score into a new output, or again with --no-resume';
  throw new RewardKitError(
    'RK_STORE',
    `run ${runId} is not finished: the store holds ${stored} of its results but ${outputName} has ${outputRows}; it is left "interrupted": ${fix}`,
  );
}

function withStoredTotals(summary: unknown, totals: RunTotals): unknown {
  return typeof summary === 'object' && summary !== null ? { ...summary, stored: totals } : summary;
}
