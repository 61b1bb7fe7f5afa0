import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { RewardKitError } from '../../core/index.js';
import { type BreakerFlags, breakerGuard, breakerOption, withholdOnceOpen } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { loadConfiguredModels, pickModel, requireModelsReady } from '../models-location.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';
import { addEvidenceOptions, type EvidenceFlags, evidenceOptions } from './rubrics-evidence-flags.js';
import { registerRubricsEvolveCommand } from './rubrics-evolve-command.js';
import { registerRubricsPoolsCommands } from './rubrics-pools-command.js';
import { registerRubricsQualityCommand } from './rubrics-quality-command.js';

interface GenerateFlags extends BreakerFlags, EvidenceFlags {
  models?: string;
  answerer: string[];
  writer: string;
  input: string;
  output: string;
  agreementThreshold: number;
  concurrency: number;
  reasks: number;
  resume: boolean;
}

const fraction = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError(`--agreement-threshold expects a number in [0, 1], got "${value}".`);
  }
  return n;
};

const weightRange = (value: string): [number, number] => {
  const [min, max] = value.split(',').map(Number);
  if (min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max) || min > max) {
    throw new InvalidArgumentError(`--weight-range expects "min,max" (e.g. 1,10), got "${value}".`);
  }
  return [min, max];
};

const repeat = (value: string, previous: string[] = []) => [...previous, value];

const requireFile = (path: string, what: string) => {
  if (!existsSync(path)) throw new RewardKitError('RK_USAGE', `${what} not found: ${path}`);
};

export function registerRubricsCommand(rubrics: Command, state: CommandState): void {
  const generate = rubrics.command('generate');
  addEvidenceOptions(generate);
  generate
    .description(
      'Write a four-section rubric per query from several models’ answers; flag low agreement for review.',
    )
    .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
    .addOption(breakerOption())
    .requiredOption('-a, --answerer <name>', 'a model that answers each query (repeat: two or more)', repeat)
    .requiredOption(
      '-w, --writer <name>',
      'the model that extracts the checklist, cross-checks and writes the rubric',
    )
    .requiredOption('-i, --input <file>', 'queries, one {"id", "query", "reference"?} per line')
    .requiredOption(
      '-o, --output <file>',
      'one record per query id (JSONL); rerunning skips ids already there',
    )
    .option(
      '--agreement-threshold <x>',
      'flag queries whose answers agree less than this (0..1)',
      fraction,
      0.6,
    )
    .option('-c, --concurrency <n>', 'queries worked on at once', positiveInt('--concurrency'), 4)
    .option('--reasks <n>', 're-asks after unreadable writer output', nonNegativeInt('--reasks'), 2)
    .option('--no-resume', 'overwrite the output instead of skipping ids already in it')
    .addHelpText(
      'after',
      `
Pipeline per query: every answerer answers; the writer lists the key points and which answer
states each (support and agreement are counted from that, not asked of the model); the writer
cross-checks the answers (and the reference); then writes Essential / Important / Highlight /
Pitfall, validated by the rubric schema with re-asks. Agreement below the threshold,
contradictions or doubtful points set "needs_review" with the reasons. A failed step writes
{"id", "status": "failed", "error", "authoring"}; the exit code is 3.

Evidence: with --index (or --retriever-url) the --evidence-k best passages for each query are
given to the cross-check and the writer as untrusted data; each key point records which passages
support or contradict it, and the passages are kept in "authoring.evidence" for review. With
--min-support, a key point stated by fewer answers than that share reaches the writer only when
the evidence supports it (points judged wrong stay, for the pitfalls).

Example:
  rewardkit rubrics generate --models models.yaml --answerer a --answerer b --answerer c \\
    --writer w --input queries.jsonl --output rubrics.jsonl --agreement-threshold 0.6

With evidence from a corpus of your own:
  rewardkit index build --corpus guidelines.jsonl --out idx/
  rewardkit rubrics generate --models models.yaml --answerer a --answerer b --writer w \\
    --index idx/ --evidence-k 3 --min-support 0.5 --input queries.jsonl --output rubrics.jsonl`,
    )
    .action(async (flags: GenerateFlags) => {
      const configured = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
      const model = (name: string) => pickModel(configured, name, 'rubrics generate');
      await requireModelsReady([model(flags.writer)]);
      requireFile(flags.input, 'Input file');
      const evidence = await evidenceOptions(flags);
      const { generateRubricsFile } = await import('./rubrics-generate-file.js');
      const counts = await generateRubricsFile({
        input: flags.input,
        output: flags.output,
        resume: flags.resume,
        concurrency: flags.concurrency,
        authoring: {
          answerers: [...new Set(flags.answerer)].map(model),
          writer: model(flags.writer),
          agreementThreshold: flags.agreementThreshold,
          reasks: flags.reasks,
          ...evidence,
        },
        onWarning: (message) => process.stderr.write(`rewardkit: warning: ${message}\n`),
        ...(state.breaker && { signal: state.breaker.signal }),
        // A query that failed once the breaker had opened was not worked on: a rerun authors it.
        withhold: withholdOnceOpen(state, (record) => record.status === 'failed'),
      });
      const unwritten =
        counts.unwritten > 0
          ? `, ${counts.unwritten} not written (failed after the backend went down: a rerun authors them)`
          : '';
      process.stderr.write(
        `rubrics: ${counts.written - counts.failed} written (${counts.needsReview} need review), ${counts.failed} failed, ${counts.skipped} skipped (already in ${flags.output})${unwritten}\n`,
      );
      state.exitCode = counts.failed > 0 ? EXIT.rowsFailed : EXIT.ok;
    });

  rubrics
    .command('validate')
    .description(
      'Check a rubrics file against the schema and lint it (duplicate titles, empty sections, weights).',
    )
    .argument('<file>', 'rubrics JSONL: bare rubrics or `rubrics generate` records')
    .option('--weight-range <min,max>', 'warn about weights outside this range', weightRange, [1, 10])
    .addHelpText(
      'after',
      `
Prints one line per problem: "file:line: error: field …" (the rubric is invalid) or
"file:line: warning: <code> <path>: …" (valid, but a reviewer should look). Exit code 3 when any
line is invalid or is a failed generation record; warnings alone exit 0.

Example:
  rewardkit rubrics validate rubrics.jsonl --weight-range 1,5`,
    )
    .action(async (file: string, flags: { weightRange: [number, number] }) => {
      requireFile(file, 'Rubrics file');
      const { readRubricLines } = await import('./rubrics-read-file.js');
      const { lintRubric } = await import('../../judges/index.js');
      const print = (text: string) => process.stdout.write(`${text}\n`);
      const seen = new Map<string, number>();
      let valid = 0;
      let invalid = 0;
      let warnings = 0;
      for await (const line of readRubricLines(file)) {
        if (line.kind === 'invalid') {
          invalid++;
          for (const error of line.errors) print(error.replace(/^([^:]+:\d+): /, '$1: error: '));
          continue;
        }
        if (line.kind === 'failed') {
          invalid++;
          print(`${file}:${line.line}: error: query "${line.id}" has no rubric: ${line.error}`);
          continue;
        }
        valid++;
        const problems = lintRubric(line.rubric, { weightRange: flags.weightRange }).map(
          (w) => `${w.code} ${w.path}: ${w.message}`,
        );
        const first = seen.get(line.rubric.id);
        if (first !== undefined)
          problems.push(`duplicate_id id: "${line.rubric.id}" is also on line ${first}`);
        else seen.set(line.rubric.id, line.line);
        for (const problem of problems) print(`${file}:${line.line}: warning: ${problem}`);
        warnings += problems.length;
      }
      process.stderr.write(`rubrics: ${valid} valid, ${invalid} invalid, ${warnings} warning(s)\n`);
      state.exitCode = invalid > 0 ? EXIT.rowsFailed : EXIT.ok;
    });

  rubrics
    .command('export')
    .description('Write one editable markdown file per rubric, and an index, for human review.')
    .argument('<rubrics.jsonl>', 'rubrics JSONL: `rubrics generate` records or bare rubrics')
    .requiredOption('--out <dir>', 'directory for the review files (created if missing)')
    .option('--force', 'write into a directory that already holds markdown files', false)
    .addHelpText(
      'after',
      `
Each file shows the status (pending), the query, the tags, the authoring notes (agreement, why it
needs review, the key points; read-only) and the four sections as headings, each criterion a
"### title" with its weight and three graded descriptions. A reviewer edits the text, adds or
deletes criteria, and sets status to approved or rejected. index.md lists the rubrics that need
review first and the queries that have no rubric. See docs/rubric-authoring.md for the format.

Example:
  rewardkit rubrics export rubrics.jsonl --out review/`,
    )
    .action(async (file: string, flags: { out: string; force: boolean }) => {
      requireFile(file, 'Rubrics file');
      const { exportRubrics } = await import('./rubrics-review-dir.js');
      const result = await exportRubrics(file, flags.out, flags.force);
      for (const error of result.errors) process.stderr.write(`rewardkit: ${error}\n`);
      process.stderr.write(
        `rubrics: ${result.written} review file(s) in ${flags.out}, ${result.withoutRubric} query(ies) without a rubric listed in index.md\n`,
      );
      state.exitCode = result.errors.length > 0 ? EXIT.rowsFailed : EXIT.ok;
    });

  rubrics
    .command('import')
    .description('Read reviewed markdown files back into a rubrics JSONL file.')
    .argument('<dir>', 'the directory `rubrics export` wrote and a reviewer edited')
    .requiredOption('--out <file>', 'reviewed rubrics, one per line')
    .option('--include-pending', 'also import files still marked pending (default: only approved)', false)
    .addHelpText(
      'after',
      `
Files with status approved are parsed strictly and validated by the rubric schema; every error
names the file and line. Rejected files are left out and listed; pending files are left out and
listed unless --include-pending. The output holds the approved rubrics in export order. Exit code
3 when any file has errors.

Example:
  rewardkit rubrics import review/ --out reviewed.jsonl`,
    )
    .action(async (dir: string, flags: { out: string; includePending: boolean }) => {
      const { importRubrics } = await import('./rubrics-review-dir.js');
      const report = await importRubrics(dir, flags.includePending);
      await writeFile(flags.out, report.imported.map((r) => `${JSON.stringify(r)}\n`).join(''));
      const say = (text: string) => process.stderr.write(`${text}\n`);
      for (const error of report.errors) say(`rewardkit: ${error}`);
      for (const warning of report.warnings) say(`rewardkit: warning: ${warning}`);
      for (const rejected of report.rejected) say(`rubrics: rejected by the reviewer, left out: ${rejected}`);
      for (const pending of report.pending) say(`rubrics: still pending, left out: ${pending}`);
      say(
        `rubrics: ${report.imported.length} imported to ${flags.out}, ${report.rejected.length} rejected, ${report.pending.length} pending, ${report.errors.length} error(s)`,
      );
      state.exitCode = report.errors.length > 0 ? EXIT.rowsFailed : EXIT.ok;
    });

  registerRubricsQualityCommand(rubrics, state);
  registerRubricsEvolveCommand(rubrics, state);
  registerRubricsPoolsCommands(rubrics, state);
}
