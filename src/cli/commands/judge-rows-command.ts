import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { z } from 'zod';
import { type Evidence, sampleText } from '../../core/index.js';
import {
  isJudgeKind,
  type JudgeKind,
  type JudgeRowFormat,
  type RowLine,
  sourceKinds,
} from '../../spec/index.js';
import type { SampleText } from '../../store/index.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedCommand } from '../deprecated-command.js';
import { addDeprecatedFlag } from '../deprecated-flag.js';
import { judgedRows } from '../judged-rows.js';
import {
  addParamFlags,
  modelParamNames,
  type ParamFlag,
  paramFlags,
  paramsFromFlags,
} from '../params-flags.js';
import { RENAMED_FLAGS } from '../renamed-flags.js';
import type { StoredJsonlRun } from '../stored-jsonl-run.js';
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
  storedRunHelp,
} from './judge-model.js';

export type JudgeRowsFlags = JsonlCommandFlags &
  Pick<JudgeModelFlags, 'models' | 'store' | 'cache' | 'cacheTtl' | 'maxConsecutiveFailures'>;

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

/** The flags of the run itself, which no param may shadow. */
const RUN_FLAGS = new Set([
  '--input',
  '--output',
  '--concurrency',
  '--store',
  '--models',
  '--report',
  '--traces',
  '--no-traces',
  '--max-consecutive-failures',
]);

/**
 * A judge kind over its benchmark's own rows (`judge medical_rubric --bench-rows`, and the old
 * `judge pointwise`): each row made a sample and judged by the kind's check, each judgment written
 * as the format's line, the format's report after the summary line. `command` names the run in
 * its summary line; `reportFile` is where the report goes as JSON, if anywhere.
 */
export async function runJudgeRows(
  kind: JudgeKind,
  rows: JudgeRowFormat<z.ZodType>,
  params: unknown,
  options: JudgeRowsFlags & { reportFile?: string },
  command: string,
  state: CommandState,
): Promise<void> {
  for (const warning of kind.warnings?.(params) ?? []) process.stderr.write(`warning: ${warning}\n`);
  requireJsonlInput(options);
  const { services, close } = await openJudgeServices(
    options,
    modelParamNames(kind.params, params as Record<string, unknown>),
    command,
    state,
  );
  const check = kind.create(params);
  const toFile = options.output !== undefined && options.output !== '-';
  // Printed lines are kept for the report; written ones are read back from the file instead.
  const printed: RowLine[] = [];
  let stored: StoredJsonlRun | undefined;
  let report: unknown;
  try {
    const { openStoredJsonlRun } = await import('../stored-jsonl-run.js');
    const { evidenceResult } = await import('../evidence-result.js');
    // Each row's evidence and texts, from its judgment until its line is stored.
    const judged = judgedRows((line, row: { evidence: Evidence; text: SampleText }) => ({
      result: evidenceResult(line.id, row.evidence),
      text: row.text,
    }));
    stored = await openStoredJsonlRun(options, {
      command,
      spec_name: command,
      spec: { command, kind: kind.kind, params },
      kind: 'judge',
      resultOf: judged.resultOf,
      tally: judged.tally,
    });
    const summary = await runJsonlCommand(
      command,
      options,
      {
        schema: rows.schema,
        idOf: rows.idOf,
        autoId: rows.ownIds !== true,
        ...(stored && { onWritten: stored.onWritten }),
        handle: async (row) => {
          const sample = rows.sample(row);
          const { detail, usage, evidence } = await judgeKindRow(kind.kind, check, sample, services);
          if (stored) judged.keep(rows.idOf(row), { evidence, text: sampleText(sample) });
          const line = rows.line({ detail, usage }, row);
          if (rows.report && !toFile) printed.push({ id: rows.idOf(row), ...line });
          return line;
        },
      },
      state,
    );
    if (rows.report !== undefined)
      report = rows.report.build(toFile ? await outputLines(options.output as string) : printed);
    await stored?.finish(summary, () => ({
      kind: 'judge',
      headline: judged.headline(command),
      command,
      judge: kind.kind,
      ...(report !== undefined && { report }),
    }));
  } finally {
    await stored?.close();
    await close();
  }
  if (rows.report === undefined) return;
  process.stderr.write(rows.report.format(report as never, command));
  if (options.reportFile !== undefined)
    await writeFile(options.reportFile, `${JSON.stringify(report, null, 2)}\n`);
}

/** The params as flags: all but those the row format omits. */
function rowParamFlags(kind: JudgeKind, rows: JudgeRowFormat<z.ZodType>): ParamFlag[] {
  return paramFlags(kind.params, RUN_FLAGS).filter((f) => !rows.omit?.includes(f.path[0] as string));
}

/**
 * The row command a judge kind declared for its benchmark's rows (`check claims`, `judge
 * pointwise`, `judge tool-plan`), kept working under its old name: `judge <kind> --bench-rows` is
 * the same judge over the same rows.
 */
export function registerJudgeRowsCommand(
  parent: Command,
  kind: JudgeKind,
  rows: JudgeRowFormat<z.ZodType>,
  state: CommandState,
): void {
  const name = rows.command.join(' ');
  const flags = rowParamFlags(kind, rows);
  const command = addResponseCacheOptions(
    addJsonlOptions(
      addDeprecatedCommand(parent, {
        name: rows.command[1],
        replacement: `judge ${kind.kind} --bench-rows`,
        description: rows.description,
      }),
      { concurrency: rows.concurrency },
    ),
    { storesRun: true },
  ).option('--models <file>', 'models file (default: $REWARDKIT_MODELS)');
  if (rows.report?.file) command.option('--report <file>', 'also write the report as JSON');
  addParamFlags(command, flags);
  for (const renamed of RENAMED_FLAGS[name] ?? []) addDeprecatedFlag(command, renamed);
  command.addHelpText(
    'after',
    `
The "${kind.kind}" judge kind over its benchmark's own rows, as \`rewardkit judge ${kind.kind} --bench-rows\`
runs it (this command is its old name): the flags are its params, as in a spec's {kind: ${kind.kind}, params}.

${rows.help}
${JSONL_OUTPUT_HELP}
${JUDGE_CACHE_HELP}
${storedRunHelp('judge')}

Example${rows.examples.length > 1 ? 's' : ''}:
${rows.examples.map((line) => `  rewardkit ${name} ${line}`).join('\n')}`,
  );
  command.action(async (options: JudgeRowsFlags & { report?: string }) => {
    const params = kind.params.parse(paramsFromFlags(kind.params, flags, command));
    const { report, ...rest } = options;
    await runJudgeRows(
      kind,
      rows,
      params,
      { ...rest, ...(report !== undefined && { reportFile: report }) },
      name,
      state,
    );
  });
}

/** The row-format commands the judge kinds declare under this command group (`judge`, `check`). */
export function registerJudgeRowsCommands(parent: Command, state: CommandState): void {
  for (const kind of sourceKinds.values()) {
    if (isJudgeKind(kind) && kind.rows?.command[0] === parent.name())
      registerJudgeRowsCommand(parent, kind, kind.rows, state);
  }
}
