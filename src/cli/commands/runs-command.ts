import type { Command } from 'commander';
import { RewardKitError } from '../../core/index.js';
import { analysisOf } from '../../store/analysis-summary.js';
import { openStoreFromFlag, STORE_FLAG_HELP } from '../store-location.js';
import { registerRunsExportCommand } from './runs-export-command.js';

export function registerRunsCommand(runs: Command): void {
  runs
    .command('list')
    .description('List recent runs, newest first.')
    .option('--store <path|url>', STORE_FLAG_HELP)
    .option('-n, --limit <n>', 'how many runs', (v) => Number(v), 20)
    .action(async (flags: { store?: string; limit: number }) => {
      const store = await requireStore(flags.store);
      try {
        for (const run of await store.listRuns({ limit: flags.limit })) {
          process.stdout.write(
            `${run.id}  ${run.status.padEnd(11)}  ${run.spec_name}  ${run.input ?? '-'} -> ${run.output ?? '-'}  ${runCounts(run.summary)}\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
  runs
    .command('show')
    .description('Show one run: its spec, summary, per-source statistics and failures, as JSON.')
    .argument('<run-id>')
    .option('--store <path|url>', STORE_FLAG_HELP)
    .option('--request <id>', 'also list the results one server request produced (its X-Request-Id)')
    .option(
      '--report <file>',
      'also write the run as one self-contained HTML file (summary, tables, histograms)',
    )
    .action(async (id: string, flags: { store?: string; request?: string; report?: string }) => {
      const store = await requireStore(flags.store);
      try {
        const run = await store.getRun(id);
        if (!run)
          throw new RewardKitError(
            'RK_USAGE',
            `No run "${id}" in the store; list them with: rewardkit runs list`,
          );
        const detail = {
          ...run,
          // What the store holds of the run, over all its sessions (`summary` is the last one's):
          // a finished run holds a result for every line of its output.
          stored: await store.runTotals(id),
          sources: await store.sourceStats(id),
          failures: await store.listFailures(id),
          ...(flags.request !== undefined && {
            request: {
              id: flags.request,
              results: await store.listResults(id, { requestId: flags.request }),
            },
          }),
        };
        process.stdout.write(`${JSON.stringify(detail, null, 2)}\n`);
        if (flags.report !== undefined) {
          const { writeRunReport } = await import('../run-report.js');
          await writeRunReport(store, run, flags.report);
          process.stderr.write(`report: ${flags.report}\n`);
        }
      } finally {
        await store.close();
      }
    });
  registerRunsExportCommand(runs);
}

async function requireStore(flag: string | undefined) {
  const store = await openStoreFromFlag(flag);
  if (!store) throw new RewardKitError('RK_USAGE', 'Runs are read from a store; --store none has none');
  return store;
}

interface RunSummaryCounts {
  rows?: number;
  failed?: number;
  mean_reward?: number | null;
  /** The store's totals over every session, kept when a run finishes (a resumed run's own counts cover its last session). */
  stored?: { results: number; failed: number; mean_reward: number | null };
}

function runCounts(summary: unknown): string {
  if (typeof summary !== 'object' || summary === null) return '';
  const analysis = analysisOf(summary);
  if (analysis) return `kind=${analysis.kind}  ${analysis.headline}`;
  const { rows, failed, mean_reward, stored } = summary as RunSummaryCounts;
  return stored
    ? `rows=${stored.results} failed=${stored.failed} mean=${stored.mean_reward ?? '—'}`
    : `rows=${rows} failed=${failed} mean=${mean_reward ?? '—'}`;
}
