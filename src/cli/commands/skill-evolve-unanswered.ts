import type { EvolveJudgeReport, EvolveReport } from '../../skills/index.js';
import { EXIT } from '../exit-codes.js';

/** What an evolve run's models never answered readably, one line each; none when all answered. */
export interface EvolveUnanswered {
  readonly lines: string[];
  /** Nothing was learned from the models: every analysis (or every judgment) failed. */
  readonly nothingLearned: boolean;
}

/**
 * The analyses, patch proposals and merges of a Trace2Skill run the analyst never answered
 * readably: each is a sample whose model failed, so the command says so and exits 3 instead of
 * reporting the source skill, unchanged, as evolved.
 */
export function evolveUnanswered(report: EvolveReport): EvolveUnanswered {
  const t = report.trajectories;
  const seed = report.seeds.find((s) => s.seed === report.selected_seed);
  const lines = [
    ...(t.invalid_analyses > 0
      ? [
          `${t.invalid_analyses} of ${t.analysed} trajectories could not be analysed (the analyst never answered readably; see analyses.jsonl)`,
        ]
      : []),
    ...(seed && seed.patches.failed_proposals + seed.patches.failed_merges > 0
      ? [
          `${seed.patches.failed_proposals} patch proposal(s) and ${seed.patches.failed_merges} merge(s) of the selected seed failed: ${seed.patches.failures[0] ?? 'see report.json'}`,
        ]
      : []),
  ];
  return { lines, nothingLearned: t.analysed > 0 && t.invalid_analyses === t.analysed };
}

/** `evolveUnanswered`, plus the judgments of `skill evolve-judge` that got no readable verdict. */
export function evolveJudgeUnanswered(report: EvolveJudgeReport): EvolveUnanswered {
  const evolve = evolveUnanswered(report.evolve);
  const splits = [
    report.accuracy.before.held_in,
    report.accuracy.before.held_out,
    report.accuracy.after?.held_in,
    report.accuracy.after?.held_out,
  ].flatMap((split) => (split ? [split] : []));
  const invalid = splits.reduce((n, split) => n + split.invalid, 0);
  const pairs = splits.reduce((n, split) => n + split.pairs, 0);
  const before = report.accuracy.before.held_in;
  return {
    lines: [
      ...(invalid > 0
        ? [`${invalid} of ${pairs} judgments got no readable verdict (see judgments.jsonl)`]
        : []),
      ...evolve.lines,
    ],
    nothingLearned: evolve.nothingLearned || (before.pairs > 0 && before.invalid === before.pairs),
  };
}

/**
 * Says what the models never answered and whether a skill was written, and returns the exit code:
 * 3 when nothing was learned or some answers are missing, 1 when no seed gave a valid skill.
 */
export function evolveExitCode(
  command: string,
  unanswered: EvolveUnanswered,
  written: boolean,
  reportPath: string,
): number {
  for (const line of unanswered.lines) process.stderr.write(`rewardkit ${command}: ${line}\n`);
  if (unanswered.nothingLearned) {
    process.stderr.write(`nothing was learned, so no skill was written; see ${reportPath}\n`);
    return EXIT.rowsFailed;
  }
  if (!written) process.stderr.write(`no seed gave a valid skill; see ${reportPath}\n`);
  return !written ? EXIT.error : unanswered.lines.length > 0 ? EXIT.rowsFailed : EXIT.ok;
}
