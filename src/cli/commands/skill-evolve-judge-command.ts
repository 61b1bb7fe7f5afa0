import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { RewardKitError } from '../../core/index.js';
import { verdictLine } from '../../lab/claim-verdict.js';
import { usageOf } from '../../llm/index.js';
import { addUsage } from '../../llm/usage-of.js';
import type { EvolveJudgeReport } from '../../skills/index.js';
import type { CommandState } from '../command-state.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';
import { addResponseCacheOptions, openJudgeServices } from './judge-model.js';
import { heldOutAcrossSeeds } from './skill-evolve-judge-seeds.js';
import {
  collect,
  OUT_FILES,
  readResumeLines,
  refuseEvolveOut,
  writeEvolvedSkill,
} from './skill-evolve-output.js';
import { evolveExitCode, evolveJudgeUnanswered } from './skill-evolve-unanswered.js';

interface EvolveJudgeFlags {
  skill: string;
  input: string;
  out: string;
  models?: string;
  model: string;
  analyst?: string;
  heldOut: number;
  seed: number;
  seeds: number;
  splitSeeds: number;
  analystToolCalls: number;
  analystToolChars: number;
  concurrency: number;
  protect: string[];
  resume: boolean;
  store?: string;
  cache: boolean;
  cacheTtl?: number;
}

const JUDGMENTS_FILE = 'judgments.jsonl';

/** Adds `skill evolve-judge` to the `skill` command. */
export function registerSkillEvolveJudgeCommand(skill: Command, state: CommandState): void {
  addResponseCacheOptions(
    skill
      .command('evolve-judge')
      .description(
        "The closed loop: evolve a Skill-RM judge's skill from its own verdicts on labelled pairs, and measure it on held-out pairs.",
      )
      .requiredOption('--skill <dir>', "the judge's skill to start from (never written to)")
      .requiredOption(
        '--input <file>',
        'labelled pairs (JSONL, JSON or Parquet): {id, prompt, chosen, rejected} or {id, prompt, first, second, label}',
      )
      .requiredOption(
        '--out <dir>',
        'where the evolved skill and the reports go: new, empty, or an earlier evolve-judge output (resume)',
      )
      .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
      .requiredOption('-m, --model <name>', 'the Skill-RM judge: a model name from the models file')
      .option('--analyst <name>', 'the Trace2Skill analyst (default: the judge model)')
      .option('--held-out <fraction>', 'the fraction of pairs held out for the report', fraction, 0.5)
      .option(
        '--seed <n>',
        'seeds the split and which position each better response is shown in',
        nonNegativeInt('--seed'),
        0,
      )
      .option(
        '--seeds <n>',
        'evolve with Trace2Skill seeds 0 … n-1 and keep the best on held-in',
        positiveInt('--seeds'),
        1,
      )
      .option(
        '--split-seeds <n>',
        'run the whole loop on split seeds --seed … --seed + n − 1 and report the held-out gain over them with its interval (a verdict needs 3)',
        positiveInt('--split-seeds'),
        3,
      )
      .option(
        '--analyst-tool-calls <n>',
        "tool calls (the judge's list/view/run resource tools on its pair) each failed run's analyst may make; 0: it only reads",
        nonNegativeInt('--analyst-tool-calls'),
        4,
      )
      .option(
        '--analyst-tool-chars <n>',
        'characters of one tool result an analyst reads; the rest is cut, and the cut said',
        positiveInt('--analyst-tool-chars'),
        4000,
      )
      .option(
        '-c, --concurrency <n>',
        'judgments and analyst calls in flight at most',
        positiveInt('--concurrency'),
        8,
      )
      .option(
        '--protect <path>',
        'a file, or a folder ending in "/", no edit may touch (repeatable)',
        collect,
        [],
      )
      .option(
        '--no-resume',
        `judge and analyse everything again (${JUDGMENTS_FILE} and ${OUT_FILES.analyses} start over)`,
      ),
  )
    .addHelpText(
      'after',
      `
Splits the pairs by --seed into held-in and held-out (each needs at least 2) and shows each pair's
better response first or second at random (seeded, recorded in the report). The Skill-RM judge,
holding the skill, judges the held-in pairs in both orders; a right verdict is a successful run and
a wrong one (a tie, orders that disagree, or no verdict count as wrong) a failed run, its trace the
run the analyst reads: it is told the verdict was wrong, never which response is better. The
analysts run at once (up to --concurrency), each able to call the judge's own resource tools
(list_resources, view_resource, run_resource) on its pair, within --analyst-tool-calls calls of
--analyst-tool-chars characters each. A failed
run's lessons are kept only when the judge, with them appended to the skill, judges the pair again
(both orders) and now gets it right. Trace2Skill evolves the skill (combined mode); the judge's held-in accuracy picks the seed; the source and the evolved skill are then
judged on the held-out pairs, which never feed the evolution.

The loop runs on --split-seeds split seeds (default 3), each with its own split and positions;
held-out accuracy, evolved minus source, paired by split seed, gives the verdict (held,
not_held, inconclusive, or too_small under 3 seeds) with its 95% paired-t interval. The skill,
patch and changelog written are those of the first split seed (--seed).

Writes to --out: skill/ (the evolved skill, only when valid), patch.json, CHANGELOG.md,
report.json (accuracy before / after on both splits, the cost of each phase, the Trace2Skill
report), ${JUDGMENTS_FILE} and ${OUT_FILES.analyses} (appended as they finish: a rerun reuses the
judgments of the same skill and pair and the analyses of the same run). Prints a summary. Exit 1
when no seed gives a valid skill.

Examples:
  rewardkit skill evolve-judge --skill skills/reward-judge --input labelled-pairs.jsonl \\
    --models models.yaml --model judge --out evolved-judge/
  rewardkit skill evolve-judge --skill skills/reward-judge --input pairs.parquet --models models.yaml \\
    --model judge --analyst analyst --held-out 0.3 --seed 1 --seeds 3 --out evolved-judge/`,
    )
    .action(async (flags: EvolveJudgeFlags) => {
      state.exitCode = await runSkillEvolveJudge(flags, state);
    });
}

async function runSkillEvolveJudge(flags: EvolveJudgeFlags, state: CommandState): Promise<number> {
  const [skills, evolveJudge, trace2skill] = await Promise.all([
    import('../../skills/index.js'),
    import('../../skills/evolve-judge/index.js'),
    import('../../skills/trace2skill/index.js'),
  ]);
  const out = resolve(flags.out);
  refuseEvolveOut({
    dirs: [{ path: out, name: flags.out }],
    skill: { path: resolve(flags.skill), name: flags.skill },
    out: { path: out, name: flags.out },
    resumeFiles: [OUT_FILES.report, JUDGMENTS_FILE],
    command: 'evolve-judge',
  });
  const files = skills.readSkillFiles(flags.skill);
  const parsed = skills.parseSkill(files);
  if (!parsed.ok)
    throw new RewardKitError(
      'RK_USAGE',
      `the skill ${flags.skill} is not valid:\n${parsed.violations.map((v) => skills.formatViolation(v, flags.skill)).join('\n')}`,
    );
  const { readLabelledPairs } = await import('../read-labelled-pairs.js');
  const input = await readLabelledPairs(flags.input);
  for (const error of input.rejected) process.stderr.write(`warning: skipped row: ${error}\n`);
  // Refused before any model is opened or anything is written.
  evolveJudge.splitPairs(input.pairs, { heldOut: flags.heldOut, seed: flags.seed });

  mkdirSync(out, { recursive: true });
  const judgmentsPath = join(out, JUDGMENTS_FILE);
  const analysesPath = join(out, OUT_FILES.analyses);
  // A judgment with no verdict is asked again: the judge may not have answered at all (a backend
  // that was down), and a rerun is how the run goes on once it answers.
  const judged = flags.resume
    ? readResumeLines(judgmentsPath, evolveJudge.JudgedPairSchema).filter((j) => j.verdict !== 'invalid')
    : [];
  const analyses = flags.resume ? readResumeLines(analysesPath, trace2skill.AnalysisRecordSchema) : [];
  if (!flags.resume) {
    writeFileSync(judgmentsPath, '');
    writeFileSync(analysesPath, '');
  }

  const analystName = flags.analyst ?? flags.model;
  const { services, close } = await openJudgeServices(
    flags,
    [flags.model, analystName],
    'skill evolve-judge',
    state,
  );
  const { skillRmRuntime } = await import('../../spec/index.js');
  let result: Awaited<ReturnType<typeof evolveJudge.evolveJudgeSeeds>>;
  try {
    result = await evolveJudge.evolveJudgeSeeds({
      files,
      pairs: input.pairs,
      judge: {
        model: services.model(flags.model),
        runtime: skillRmRuntime(services, { model: flags.model, reasks: 2 }),
      },
      analyst: services.model(analystName),
      heldOut: flags.heldOut,
      seed: flags.seed,
      seeds: flags.seeds,
      splitSeeds: flags.splitSeeds,
      analystCaps: { maxCalls: flags.analystToolCalls, maxOutputChars: flags.analystToolChars },
      // A loop whose models never answered says so; the next seeds would only repeat that.
      next: (run) => !evolveJudgeUnanswered(run.report).nothingLearned,
      concurrency: flags.concurrency,
      protect: flags.protect,
      judged,
      onJudged: (j) => appendFileSync(judgmentsPath, `${JSON.stringify(j)}\n`),
      analyses,
      onRecord: (record) => appendFileSync(analysesPath, `${JSON.stringify(record)}\n`),
    });
  } finally {
    await close();
  }

  const { evolved, report: loop } = result.runs[0] as (typeof result.runs)[number];
  const seeds = heldOutAcrossSeeds(result.heldOut, flags.splitSeeds);
  const unanswered = evolveJudgeUnanswered(loop);
  // The source skill, unchanged because the models never answered, is not an evolved skill.
  const written = loop.evolve.valid && !unanswered.nothingLearned;
  const skillOut = join(out, OUT_FILES.skill);
  if (written) writeEvolvedSkill(flags.skill, evolved.files, skillOut, skills.writeSkillFiles);
  if (evolved.patch !== undefined)
    writeFileSync(join(out, OUT_FILES.patch), `${JSON.stringify(evolved.patch, null, 2)}\n`);
  writeFileSync(join(out, OUT_FILES.changelog), trace2skill.renderChangelog(evolved));
  const report = {
    ...loop,
    input: {
      file: flags.input,
      rows_read: input.pairs.length,
      rows_rejected: input.rejected.length,
      errors: input.rejected,
    },
    models: { judge: flags.model, analyst: analystName },
    out: { skill: written ? skillOut : null, judgments: judgmentsPath, analyses: analysesPath, written },
    fix_patches: evolved.fixPatches,
    split_seeds: {
      ...seeds,
      cost: { total: result.runs.reduce((u, r) => addUsage(u, r.report.cost.total), usageOf([])) },
    },
  };
  writeFileSync(join(out, OUT_FILES.report), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(summary(loop, flags.out, written));
  process.stdout.write(`${verdictLine(seeds.verdict)}\n`);
  return evolveExitCode('skill evolve-judge', unanswered, written, join(out, OUT_FILES.report));
}

/** The figures a reader wants first; the rest is in report.json. */
function summary(report: EvolveJudgeReport, out: string, written: boolean): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const { before, after } = report.accuracy;
  const line = (
    name: string,
    b: { accuracy: number; pairs: number } | undefined,
    a: { accuracy: number } | undefined,
  ) =>
    `${name} accuracy: ${b ? pct(b.accuracy) : '—'} → ${a ? pct(a.accuracy) : '—'} (${b?.pairs ?? 0} pairs)`;
  const usage = (u: { calls: number; prompt_tokens: number; completion_tokens: number }) =>
    `${u.calls} calls, ${u.prompt_tokens} prompt + ${u.completion_tokens} completion tokens`;
  const c = report.cost;
  return [
    line('held-out', before.held_out, after?.held_out) +
      (report.held_out_gain !== undefined
        ? ` ${report.held_out_gain >= 0 ? '+' : ''}${(100 * report.held_out_gain).toFixed(1)} points`
        : ''),
    line('held-in ', before.held_in, after?.held_in),
    `trajectories: ${report.trajectories.passed} passed, ${report.trajectories.failed} failed; selected seed: ${report.evolve.selected_seed ?? 'none'}`,
    `cost: judging held-in before ${usage(c.judge_held_in_before)}; seeds on held-in ${usage(c.judge_held_in_seeds)}; held-out before ${usage(c.judge_held_out_before)}; held-out after ${usage(c.judge_held_out_after)}; gate re-runs ${usage(c.judge_gate)}; analyst ${usage(c.evolve)}; total ${usage(c.total)}`,
    `wrote ${written ? `${join(out, OUT_FILES.skill)}, ` : ''}${join(out, OUT_FILES.report)}`,
    '',
  ].join('\n');
}

function fraction(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n > 0 && n < 1))
    throw new InvalidArgumentError(
      `--held-out expects a fraction between 0 and 1 (exclusive), got "${value}".`,
    );
  return n;
}
