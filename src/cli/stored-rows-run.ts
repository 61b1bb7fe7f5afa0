import { existsSync, statSync } from 'node:fs';
import type { RewardResult } from '../core/index.js';
import { finishCheckedRun } from '../runner/index.js';
import { type AnalysisSummary, reportStateKey } from '../store/analysis-summary.js';
import type { NewRun, SampleText, Store } from '../store/index.js';
import { specHash } from '../store/spec-hash.js';
import { openStoreFromFlag } from './store-location.js';

/** Results saved in one transaction: few transactions, little memory, and a live run that moves. */
const SAVE_BATCH = 64;

/**
 * The stored run of a command that writes one line per row to a file of its own (`bench`, `judge
 * pairwise`, a judge's `--bench-rows`): each line kept as a result as it is written, so `runs
 * list` and `rewardkit view` show the run beside the scoring runs, and its summary at the end.
 */
export interface StoredRowsRun {
  readonly id: string;
  /** Keeps a written line's result, with the texts it judged where known (saved in batches). */
  save(result: RewardResult, text?: SampleText): Promise<void>;
  /** The ids the store holds for this run (after the pending batch): a resumed run stores the rest. */
  storedIds(): Promise<Set<string>>;
  /**
   * Ends the run with its summary (and HTML report, if any): `finished` when the store holds as
   * many results as the output (`outputRows`), else `interrupted` with an `RK_STORE` error, as for
   * `score`; `interrupted` when the command was stopped.
   */
  finish(
    summary: AnalysisSummary,
    end: { interrupted: boolean; outputRows: number; outputName: string; reportHtml?: string },
  ): Promise<void>;
  /** Closes the store; a run not finished by then (the command failed) is marked interrupted. */
  close(why?: string): Promise<void>;
}

/**
 * Opens the store as `score` does (`--store`, `REWARDKIT_STORE`, the default file; `none` stores
 * nothing: undefined) and creates the command's run, or, when `resume` and the output file already
 * has lines, reopens the latest run of the same spec, input and output, as `score` resumes.
 */
export async function openStoredRowsRun(
  storeFlag: string | undefined,
  run: NewRun & { readonly output?: string },
  options: { readonly resume: boolean; readonly kind: string },
): Promise<StoredRowsRun | undefined> {
  const store: Store | undefined = await openStoreFromFlag(storeFlag);
  if (!store) return undefined;
  const output = run.output;
  const resumable =
    options.resume && output !== undefined && existsSync(output) && statSync(output).size > 0
      ? await store.findResumableRun({
          spec_hash: specHash(run.spec),
          ...(run.input !== undefined && { input: run.input }),
          output,
        })
      : undefined;
  const { id } = resumable ?? (await store.createRun(run));
  let results: RewardResult[] = [];
  let texts: (SampleText | undefined)[] = [];
  let ended = false;
  const flush = async () => {
    if (results.length === 0) return;
    const batch = results;
    const batchTexts = texts;
    results = [];
    texts = [];
    await store.saveResults(id, batch, { samples: batchTexts });
  };
  return {
    id,
    async save(result, text) {
      results.push(result);
      texts.push(text);
      if (results.length >= SAVE_BATCH) await flush();
    },
    async storedIds() {
      await flush();
      return store.completedIds(id);
    },
    async finish(summary, end) {
      await flush();
      if (end.reportHtml !== undefined) await store.putState(reportStateKey(id), end.reportHtml);
      ended = true;
      await finishCheckedRun(store, id, {
        summary,
        interrupted: end.interrupted,
        outputRows: end.outputRows,
        outputName: end.outputName,
        sources: undefined,
      });
    },
    async close(why = 'the command failed') {
      try {
        if (!ended) {
          await flush();
          await store.finishRun(id, { kind: options.kind, headline: `stopped: ${why}` }, 'interrupted');
        }
      } finally {
        await store.close();
      }
    },
  };
}
