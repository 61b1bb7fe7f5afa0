import type { Command } from 'commander';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';

/** `rubrics export-pools` / `import-pools`: the human review round trip of OpenRS domain pools. */
export function registerRubricsPoolsCommands(rubrics: Command, state: CommandState): void {
  rubrics
    .command('export-pools')
    .description(
      'Write OpenRS domain pools as review files (status pending) with an index, for human review.',
    )
    .option('--domains <dir>', 'the pool folder to review (default: the shipped pools)')
    .requiredOption('--out <dir>', 'directory for the review files (created if missing)')
    .option('--force', 'write into a directory that already holds markdown files', false)
    .addHelpText(
      'after',
      `
Each pool is validated first (file:line errors). Every review file starts with a header line and
"status: pending", then the pool's markdown to edit; the exported pools are kept under .original/
so the import can say what the review changed. See docs/judges.md.

Example:
  rewardkit rubrics export-pools --out pool-review/`,
    )
    .action(async (flags: { domains?: string; out: string; force: boolean }) => {
      const { exportDomainPools } = await import('./rubrics-pools-dir.js');
      const ids = exportDomainPools(flags.domains, flags.out, flags.force);
      process.stderr.write(`rubrics: ${ids.length} pool review file(s) in ${flags.out}: ${ids.join(', ')}\n`);
    });

  rubrics
    .command('import-pools')
    .description('Read reviewed domain pools back into a pool folder that --domains takes.')
    .argument('<dir>', 'the directory `rubrics export-pools` wrote and a reviewer edited')
    .requiredOption('--out <dir>', 'the new pool folder (one version per review round)')
    .option('--include-pending', 'also apply the edits of files still marked pending', false)
    .option('--force', 'write into a directory that already holds markdown files', false)
    .addHelpText(
      'after',
      `
Every file is parsed strictly (the header, "status: pending | approved | rejected", then the pool
schema); with any error nothing is written and the exit code is 3. Approved pools are written as
reviewed, with the criteria added, removed and edited; rejected and pending pools are written as
they were exported.

Example:
  rewardkit rubrics import-pools pool-review/ --out domains-v2/`,
    )
    .action(async (dir: string, flags: { out: string; includePending: boolean; force: boolean }) => {
      const { importDomainPools } = await import('./rubrics-pools-dir.js');
      const report = importDomainPools(dir, flags.out, flags.includePending, flags.force);
      const say = (text: string) => process.stderr.write(`${text}\n`);
      for (const error of report.errors) say(`rewardkit: ${error}`);
      const names = (list: string[]) => (list.length > 0 ? list.join(', ') : 'none');
      for (const { id, changes } of report.approved) {
        say(
          `rubrics: ${id} approved: added ${names(changes.added)}; removed ${names(changes.removed)}; edited ${names(changes.edited)}`,
        );
      }
      for (const id of report.rejected) say(`rubrics: ${id} rejected by the reviewer: kept as exported`);
      for (const id of report.pending) say(`rubrics: ${id} still pending: kept as exported`);
      say(
        report.errors.length > 0
          ? `rubrics: ${report.errors.length} error(s): nothing written`
          : `rubrics: ${report.written} pool(s) written to ${flags.out} (${report.approved.length} edited by review)`,
      );
      state.exitCode = report.errors.length > 0 ? EXIT.rowsFailed : EXIT.ok;
    });
}
