import { type AnalysisSummary, reportStateKey } from '../store/analysis-summary.js';
import type { Store } from '../store/index.js';
import { openStoreFromFlag } from './store-location.js';

/** An analysis command's stored run, from creation to its summary and report. */
export interface AnalysisRun {
  readonly id: string;
  /** Finishes the run with its summary, and keeps the HTML report for the inspector. */
  finish(summary: AnalysisSummary, reportHtml: string): Promise<void>;
  /** Closes the run as interrupted (the command stopped before its report). */
  interrupt(kind: string, why: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the store as `score` does (`--store`, `REWARDKIT_STORE`, the default file; `none` stores
 * nothing) and creates the command's run, so `rewardkit view` and `runs list` show it beside the
 * scoring runs. Undefined with `--store none`.
 */
export async function openAnalysisRun(
  storeFlag: string | undefined,
  run: {
    readonly spec_name: string;
    readonly spec: unknown;
    readonly input: string;
    readonly output: string;
  },
): Promise<AnalysisRun | undefined> {
  const store: Store | undefined = await openStoreFromFlag(storeFlag);
  if (!store) return undefined;
  const { id } = await store.createRun(run);
  return {
    id,
    async finish(summary, reportHtml) {
      await store.putState(reportStateKey(id), reportHtml);
      await store.finishRun(id, summary);
    },
    async interrupt(kind, why) {
      await store.finishRun(id, { kind, headline: `stopped: ${why}` }, 'interrupted');
    },
    close: () => store.close(),
  };
}
