import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { z } from 'zod';
import {
  isJudgeKind,
  type JudgeKind,
  type JudgeRowFormat,
  type RowLine,
  sourceKinds,
} from '../../spec/index.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag } from '../deprecated-flag.js';
import { addParamFlags, modelParamNames, paramFlags, paramsFromFlags } from '../params-flags.js';
import { RENAMED_FLAGS } from '../renamed-flags.js';
import {
  addJsonlOptions,
  JSONL_OUTPUT_HELP,
  type JsonlCommandFlags,
  requireJsonlInput,
  runJsonlCommand,
} from './jsonl-command.js';
import { judgeKindRow } from './judge-kind-row.js';
import {
  addResponseCacheOptions,
  JUDGE_CACHE_HELP,
  type JudgeModelFlags,
  openJudgeServices,
} from './judge-model.js';

type JudgeRowsFlags = JsonlCommandFlags &
  Pick<JudgeModelFlags, 'models' | 'store' | 'cache' | 'cacheTtl'> & { report?: string };

/** Every line of the output file (a resumed run's earlier lines too), for the report. */
async function outputLines(output: string): Promise<RowLine[]> {
  const text = await readFile(output, 'utf8').catch(() => '');
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as RowLine];
    } catch {
      return [];
    }
  });
}

/**
 * The command a judge kind declares for its benchmark's own rows (`check claims`, `judge
 * pointwise`, `judge tool-plan`): the kind's params as flags under the spec's names, each row
 * made a sample and judged by the kind's check, each judgment written as the format's line.
 */
export function registerJudgeRowsCommand(
  parent: Command,
  kind: JudgeKind,
  rows: JudgeRowFormat<z.ZodType>,
  state: CommandState,
): void {
  const name = rows.command.join(' ');
  const flags = paramFlags(
    kind.params,
    new Set([
      '--input',
      '--output',
      '--concurrency',
      '--store',
      '--models',
      '--report',
      '--traces',
      '--no-traces',
      '--max-consecutive-failures',
    ]),
  ).filter((f) => !rows.omit?.includes(f.path[0] as string));
  const command = addResponseCacheOptions(
    addJsonlOptions(parent.command(rows.command[1]).description(rows.description), {
      concurrency: rows.concurrency,
    }),
  ).option('--models <file>', 'models file (default: $REWARDKIT_MODELS)');
  if (rows.report?.file) command.option('--report <file>', 'also write the report as JSON');
  addParamFlags(command, flags);
  for (const renamed of RENAMED_FLAGS[name] ?? []) addDeprecatedFlag(command, renamed);
  command.addHelpText(
    'after',
    `
The "${kind.kind}" judge kind over its benchmark's own rows: the flags are its params, as in
\`rewardkit judge ${kind.kind}\` and a spec's {kind: ${kind.kind}, params}, which read samples and write rewards.

${rows.help}
${JSONL_OUTPUT_HELP}
${JUDGE_CACHE_HELP}

Example${rows.examples.length > 1 ? 's' : ''}:
${rows.examples.map((line) => `  rewardkit ${name} ${line}`).join('\n')}`,
  );
  command.action(async (options: JudgeRowsFlags) => {
    const params = kind.params.parse(paramsFromFlags(kind.params, flags, command));
    for (const warning of kind.warnings?.(params) ?? []) process.stderr.write(`warning: ${warning}\n`);
    requireJsonlInput(options);
    const { services, close } = await openJudgeServices(
      options,
      modelParamNames(kind.params, params as Record<string, unknown>),
      name,
      state,
    );
    const check = kind.create(params);
    const toFile = options.output !== undefined && options.output !== '-';
    // Printed lines are kept for the report; written ones are read back from the file instead.
    const printed: RowLine[] = [];
    try {
      await runJsonlCommand(
        name,
        options,
        {
          schema: rows.schema,
          idOf: rows.idOf,
          autoId: rows.ownIds !== true,
          handle: async (row) => {
            const line = rows.line(await judgeKindRow(check, rows.sample(row), services), row);
            if (rows.report && !toFile) printed.push({ id: rows.idOf(row), ...line });
            return line;
          },
        },
        state,
      );
    } finally {
      await close();
    }
    if (rows.report === undefined) return;
    const report = rows.report.build(toFile ? await outputLines(options.output as string) : printed);
    process.stderr.write(rows.report.format(report as never));
    if (options.report !== undefined) await writeFile(options.report, `${JSON.stringify(report, null, 2)}\n`);
  });
}

/** The row-format commands the judge kinds declare under this command group (`judge`, `check`). */
export function registerJudgeRowsCommands(parent: Command, state: CommandState): void {
  for (const kind of sourceKinds.values()) {
    if (isJudgeKind(kind) && kind.rows?.command[0] === parent.name())
      registerJudgeRowsCommand(parent, kind, kind.rows, state);
  }
}
