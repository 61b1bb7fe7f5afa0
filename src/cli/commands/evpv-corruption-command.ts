import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { StudyProblem } from '../../judges/evpv/index.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';
import { modeList, ratioList } from './evpv-flags.js';
import { addEvpvRoleOptions, type EvpvRole, type EvpvRoleFlags, openEvpvRoles } from './evpv-roles.js';
import { requireJsonlInput } from './jsonl-command.js';

interface EvpvCorruptionFlags extends EvpvRoleFlags {
  input: string;
  output?: string;
  csv?: string;
  markdown?: string;
  ratios: number[];
  seed: number;
  trials: number;
  k?: number;
  modes: Array<'drop' | 'flip'>;
  reasks: number;
}

/** `rewardkit evpv corruption`: how reliability-gated BoN accuracy falls as the constraints are corrupted. */
export function registerEvpvCorruptionCommand(evpv: Command, state: CommandState): void {
  addEvpvRoleOptions(
    evpv
      .command('corruption')
      .description(
        'EVPV corruption study: DROP/FLIP the image constraints at each ratio, re-audit, re-gate, BoN@k accuracy',
      )
      .requiredOption('-i, --input <file>', 'problems with judged candidates, one JSON object per line')
      .option('-o, --output <file>', 'write the curve as JSON here (default: stdout)')
      .option('--csv <file>', 'also write the curve as CSV')
      .option('--markdown <file>', 'also write the curve as a markdown table')
      .option('--ratios <list>', 'corruption ratios r in [0, 1]', ratioList, [0, 0.1, 0.2, 0.4])
      .option('--seed <n>', 'seed of the corruption draws', nonNegativeInt('--seed'), 0)
      .option('--trials <n>', 'independent draws averaged per ratio', positiveInt('--trials'), 5)
      .option('--k <n>', 'BoN@k over the first k candidates (default: all of them)', positiveInt('--k'))
      .option('--modes <list>', 'drop, flip or both', modeList, ['drop', 'flip'])
      .option('--reasks <n>', 're-asks after unreadable output, per call', nonNegativeInt('--reasks'), 2),
  )
    .addHelpText(
      'after',
      `
Each input row: {"id", "question", "image" or "constraints", "answer"?, "candidates": [{"output",
"step_scores": [1|-1 per step], "correct"?}]} — \`rewardkit judge evpv --bench-rows\` output is such a row.
DROP removes each key fact with probability r; FLIP perturbs each with probability r (its number
×{0.5,0.8,1.2,1.5,2} or ±{1,2}, else its spatial relation swapped). Each candidate's checklist is
re-audited against the corrupted facts and its fixed step scores re-gated; a problem counts as
correct when a tied-top candidate among the first k is correct. The same draws serve every
ratio, so a fact corrupted at r is corrupted at every larger r.

Without a model flag, the rule-based auditor reads "key: value" facts (symbolic images, the shipped
example); with -m or --auditor the LLM auditor runs instead (cached in the store). A pixel image
needs --extractor (or -m); rows of \`judge evpv --bench-rows\` output already carry their constraints.
A row that cannot be studied is listed in "failed" with its reason (exit code 3).
${'\n'}The markdown table is printed on stderr.

Example:
  rewardkit evpv corruption --input examples/evpv/symbolic-candidates.jsonl --ratios 0,0.1,0.2,0.4 \\
    --seed 1 -o curve.json --csv curve.csv`,
    )
    .action(async (flags: EvpvCorruptionFlags) => {
      requireJsonlInput(flags);
      const judges = await import('../../judges/evpv/index.js');
      const { parseRow, readJsonlLines } = await import('../../dataset/index.js');
      const wanted: EvpvRole[] = [];
      if (flags.auditor ?? flags.model) wanted.push('auditor');
      if (flags.extractor ?? flags.model) wanted.push('extractor');
      const roles =
        wanted.length > 0
          ? await openEvpvRoles(flags, wanted, 'evpv corruption', state)
          : { models: {}, close: async () => {} };
      try {
        const { auditor, extractor } = roles.models;
        const name = flags.input === '-' ? '<stdin>' : flags.input;
        const baseDir = flags.input === '-' ? process.cwd() : dirname(resolve(flags.input));
        const problems: StudyProblem[] = [];
        const failed: Array<{ id: string; error: string }> = [];
        for await (const line of readJsonlLines(flags.input === '-' ? process.stdin : flags.input)) {
          const at = `${name}:${line.line}`;
          if (line.text === undefined) {
            failed.push({ id: `line:${line.line}`, error: `${at}: ${line.error}` });
            continue;
          }
          const parsed = parseRow(line.text, { file: name, line: line.line }, judges.EvpvProblemSchema);
          if (!parsed.ok) {
            failed.push({ id: parsed.id, error: parsed.errors.join('; ') });
            continue;
          }
          const row = parsed.value;
          let constraints = row.constraints;
          if (constraints === undefined) {
            const image = await judges.loadEvpvImage(row.image, baseDir);
            const extracted = await judges.extractVisualConstraints(
              { question: row.question, image },
              { ...(extractor && { model: extractor }), reasks: flags.reasks },
            );
            if (extracted.status !== 'ok') {
              failed.push({ id: row.id, error: `${at}: field "image": ${extracted.reason}` });
              continue;
            }
            constraints = extracted.constraints;
          }
          const study = judges.studyProblemOf(row, constraints);
          if (study.ok) problems.push(study.value);
          else failed.push({ id: row.id, error: `${at}: ${study.error}` });
        }
        const audit = auditor
          ? judges.createLlmPremiseAuditor({ model: auditor, reasks: flags.reasks })
          : judges.ruleBasedPremiseAuditor;
        const curve = await judges.corruptionCurve(problems, {
          ratios: flags.ratios,
          seed: flags.seed,
          trials: flags.trials,
          modes: flags.modes,
          audit,
          ...(flags.k !== undefined && { k: flags.k }),
        });
        const report = { ...curve, auditor: auditor ? auditor.name : 'rule-based', failed };
        const json = `${JSON.stringify(report, null, 2)}\n`;
        if (flags.output === undefined || flags.output === '-') process.stdout.write(json);
        else await writeFile(flags.output, json);
        if (flags.csv) await writeFile(flags.csv, judges.corruptionCurveCsv(curve));
        const markdown = judges.corruptionCurveMarkdown(curve);
        if (flags.markdown) await writeFile(flags.markdown, markdown);
        process.stderr.write(markdown);
        for (const f of failed) process.stderr.write(`rewardkit: failed row ${f.id}: ${f.error}\n`);
        process.stderr.write(
          `rewardkit evpv corruption: ${problems.length + failed.length} rows, ${problems.length} studied, ${failed.length} failed\n`,
        );
        // An audit the LLM auditor never answered readably is p = 0 in the curve: a point made of
        // them measures the backend, not the gating, so the exit code says so.
        const unanswered = auditor ? curve.points.reduce((n, point) => n + point.invalid_audits, 0) : 0;
        if (unanswered > 0) {
          process.stderr.write(
            `rewardkit evpv corruption: ${unanswered} audit(s) got no readable answer from the auditor (p = 0; "invalid_audits" per point)\n`,
          );
        }
        state.exitCode = failed.length > 0 || unanswered > 0 ? EXIT.rowsFailed : EXIT.ok;
      } finally {
        await roles.close();
      }
    });
}
