import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { type Command, Option } from 'commander';
import { RewardKitError, type RewardResult } from '../../core/index.js';
import type { SampleLabel } from '../../store/index.js';
import { openStoreFromFlag, STORE_FLAG_HELP } from '../store-location.js';

/** Results read from the store per query. */
const PAGE_ROWS = 1000;

interface ExportFlags {
  store?: string;
  format: 'jsonl' | 'csv';
  output: string;
}

/** The label fields of an exported row: what a person said in the inspector, or nulls. */
const labelFields = (label: SampleLabel | undefined) => ({
  label: label?.kind ?? null,
  label_score: label?.score ?? null,
  label_note: label?.note ?? null,
  labeled_at: label?.labeled_at ?? null,
});

/** `rewardkit runs export`: a run's results with the labels given to them, as JSONL or CSV. */
export function registerRunsExportCommand(runs: Command): void {
  runs
    .command('export')
    .description("Write a run's results, each with its label from rewardkit view, as JSONL or CSV.")
    .argument('<run-id>')
    .option('--store <path|url>', STORE_FLAG_HELP)
    .addOption(new Option('--format <format>', 'jsonl or csv').choices(['jsonl', 'csv']).default('jsonl'))
    .option('-o, --output <file>', 'write here ("-" for stdout)', '-')
    .addHelpText(
      'after',
      `
JSONL rows are the stored results with label, label_score, label_note and labeled_at added (null
where no one labelled the sample). CSV has one column per source's component; text that a
spreadsheet would run as a formula (starting with = + - @) is written with a leading apostrophe.

Example:
  rewardkit runs export run-20260101-120000-abcd --format csv --output run.csv`,
    )
    .action(async (id: string, flags: ExportFlags) => {
      const store = await openStoreFromFlag(flags.store);
      if (!store) throw new RewardKitError('RK_USAGE', 'Runs are read from a store; --store none has none');
      try {
        if (!(await store.getRun(id)))
          throw new RewardKitError(
            'RK_USAGE',
            `No run "${id}" in the store; list them with: rewardkit runs list`,
          );
        const labels = new Map((await store.listLabels(id)).map((l) => [l.sample_id, l]));
        const sources = (await store.sourceStats(id)).map((s) => s.source);
        const { csvCell } = await import('../../view/index.js');
        const line =
          flags.format === 'jsonl'
            ? (r: RewardResult) => `${JSON.stringify({ ...r, ...labelFields(labels.get(r.id)) })}\n`
            : (r: RewardResult) => {
                const l = labelFields(labels.get(r.id));
                return `${[
                  r.id,
                  r.status,
                  r.reward,
                  r.data_source,
                  r.group,
                  r.errors.join('; '),
                  ...sources.map((s) => r.components[s]),
                  l.label,
                  l.label_score,
                  l.label_note,
                  l.labeled_at,
                ]
                  .map((v) => csvCell(v ?? null))
                  .join(',')}\r\n`;
              };
        const out: Writable = flags.output === '-' ? process.stdout : createWriteStream(flags.output);
        const write = (text: string) =>
          out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', resolve));
        if (flags.format === 'csv') {
          const header = ['id', 'status', 'reward', 'data_source', 'group', 'errors'];
          const tail = ['label', 'label_score', 'label_note', 'labeled_at'];
          await write(
            `${[...header, ...sources.map((s) => `component.${s}`), ...tail].map(csvCell).join(',')}\r\n`,
          );
        }
        for (let offset = 0; ; offset += PAGE_ROWS) {
          const page = await store.listResults(id, { limit: PAGE_ROWS, offset });
          if (page.length > 0) await write(page.map(line).join(''));
          if (page.length < PAGE_ROWS) break;
        }
        if (out !== process.stdout) {
          out.end();
          await finished(out);
        }
      } finally {
        await store.close();
      }
    });
}
