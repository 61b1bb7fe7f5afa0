import { writeFile } from 'node:fs/promises';
import type { RunRecord, Store } from '../store/index.js';

/**
 * Writes one stored run as a self-contained HTML file (summary, per-source tables, histograms, the
 * failures and the lowest-reward samples): `runs show --report`, and `score`/`judge <kind> --report`
 * once their run is finished.
 */
export async function writeRunReport(store: Store, run: RunRecord, file: string): Promise<void> {
  const { runOverview, runReportHtml } = await import('../view/index.js');
  const html = runReportHtml({
    run: await runOverview(store, run),
    sources: await store.sourceStats(run.id),
    histograms: await store.rewardHistograms(run.id, 20),
    failures: await store.listFailures(run.id),
    samples: (await store.querySamples(run.id, { sort: 'reward', order: 'asc', limit: 50, offset: 0 })).rows,
  });
  await writeFile(file, html);
}
