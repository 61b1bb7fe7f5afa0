import { writeFile } from 'node:fs/promises';
import { reportStateKey } from '../store/analysis-summary.js';
import type { RunRecord, Store } from '../store/index.js';

/**
 * Writes one stored run as a self-contained HTML file (summary, per-source tables, histograms, reward
 * over results, cost over time when a judge ran, the failures and the lowest-reward samples): `runs show --report`, and `score`/`judge <kind> --report`
 * once their run is finished. An analysis run (redteam, …) has no rows to draw: its command's own
 * stored report is written instead.
 */
export async function writeRunReport(store: Store, run: RunRecord, file: string): Promise<void> {
  const analysisReport = await store.getState(reportStateKey(run.id));
  if (typeof analysisReport === 'string') return writeFile(file, analysisReport);
  const { runOverview, runReportHtml } = await import('../view/index.js');
  const { lowestRewardCount } = await import('../view/run-report-html.js');
  const overview = await runOverview(store, run);
  const lowest = lowestRewardCount(overview.results - overview.failed);
  const html = runReportHtml({
    run: overview,
    sources: await store.sourceStats(run.id),
    histograms: await store.rewardHistograms(run.id, 20),
    rewardSeries: await store.rewardSeries(run.id, 60),
    ...(overview.cost && { costSeries: await store.costSeries(run.id, 60) }),
    failures: await store.listFailures(run.id),
    samples:
      lowest === 0
        ? []
        : (
            await store.querySamples(run.id, {
              status: 'ok',
              sort: 'reward',
              order: 'asc',
              limit: lowest,
              offset: 0,
            })
          ).rows,
  });
  await writeFile(file, html);
}
