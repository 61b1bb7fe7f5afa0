import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { RewardKitError } from '../../core/index.js';
import { type BreakerFlags, breakerGuard } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { loadConfiguredModels, pickModel, requireModelsReady } from '../models-location.js';
import { positiveInt } from '../number-flags.js';
import { addResponseCacheOptions, openResponseCache } from './judge-model.js';
import {
  collect,
  OUT_FILES,
  readResumeLines,
  refuseEvolveOut,
  writeEvolvedSkill,
} from './skill-evolve-output.js';
import { evolveExitCode, evolveUnanswered } from './skill-evolve-unanswered.js';

interface EvolveFlags extends BreakerFlags {
  skill?: string;
  traces?: string;
  judgeResults?: string;
  labels?: string;
  out: string;
  work?: string;
  models?: string;
  model: string;
  mode: 'create' | 'deepen' | 'combined';
  name: string;
  description: string;
  seeds: number;
  concurrency: number;
  protect: string[];
  resume: boolean;
  store?: string;
  cache: boolean;
  cacheTtl?: number;
}

const ANALYSES_FILE = OUT_FILES.analyses;

/** Adds `skill evolve` to the `skill` command. */
export function registerSkillEvolveCommand(skill: Command, state: CommandState): void {
  addResponseCacheOptions(
    skill
      .command('evolve')
      .description('Trace2Skill: evolve a skill from agent trajectories with an analyst model.')
      .option('--skill <dir>', 'the skill to start from (never written to); not with --mode create')
      .option(
        '--traces <file>',
        'trajectories JSONL: {id, task, steps | transcript, outcome: {pass, score?, feedback?}, reference?}',
      )
      .option(
        '--judge-results <file>',
        "rewardkit's own judge results JSONL (score / judge <kind>), instead of --traces",
      )
      .option(
        '--labels <file>',
        'with --judge-results: {id, verdict: "pass" | "fail"} per line, the verdict the judge should have given',
      )
      .requiredOption(
        '--out <dir>',
        'where the evolved skill and the reports go: new, empty, or an earlier evolve output (resume)',
      )
      .option('--work <dir>', `where the resumable MAP analyses (${ANALYSES_FILE}) go (default: --out)`)
      .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
      .requiredOption('-m, --model <name>', 'the analyst: a model name from the models file')
      .option(
        '--mode <mode>',
        'create (from a skeleton), deepen (failures only), combined (failures and successes)',
        mode,
        'combined',
      )
      .option('--name <name>', "with --mode create: the new skill's name (kebab-case)", 'evolved-skill')
      .option(
        '--description <text>',
        "with --mode create: the new skill's description",
        'Lessons distilled from agent runs. Use when working on tasks like the ones in the traces.',
      )
      .option('--seeds <n>', 'evolve with seeds 0 … n-1 and keep the best', positiveInt('--seeds'), 1)
      .option('-c, --concurrency <n>', 'analyst calls in flight at most', positiveInt('--concurrency'), 8)
      .option(
        '--protect <path>',
        'a file, or a folder ending in "/", no edit may touch (repeatable)',
        collect,
        [],
      )
      .option('--no-resume', `analyse every trajectory again (${ANALYSES_FILE} is started over)`),
  )
    .addHelpText(
      'after',
      `
Stages: one analyst call per trajectory (MAP, --concurrency at a time; a failed run gives its
cause and up to 3 lessons, gated by its "reference" when the row has one: the analyst's corrected
answer must match it or the lessons are dropped and counted; a successful run gives up to 3
lessons), patch proposals per batch of 5 records, a hierarchical merge (batches of 5, at most 5
levels, prevalence counted in code and shown to the merger), anchor translation, apply and
validate with up to 3 fix rounds. With --seeds > 1 the seed whose applied edits have the most
trajectory support is kept (a held-in scorer is a library option).

Writes to --out: skill/ (the evolved skill, only when valid), patch.json (the merged patch as
applied), CHANGELOG.md, report.json (counts at every stage, usage); the report is also printed.
The analyses are appended to ${ANALYSES_FILE} as they finish: a rerun skips the trajectories
already analysed (same id and content). The source skill is never written to. Exit 1 when no
seed gives a valid skill.

Examples:
  rewardkit skill evolve --skill skills/reward-judge --traces runs.jsonl --out evolved/ \\
    --models models.yaml --model analyst --protect resources.yaml
  rewardkit skill evolve --mode create --name sql-agent --traces runs.jsonl --out sql-skill/ \\
    --models models.yaml --model analyst --seeds 3
  rewardkit skill evolve --skill skills/reward-judge --judge-results results.jsonl --labels labels.jsonl \\
    --out evolved/ --models models.yaml --model analyst --mode deepen`,
    )
    .action(async (flags: EvolveFlags) => {
      state.exitCode = await runSkillEvolve(flags, state);
    });
}

async function runSkillEvolve(flags: EvolveFlags, state: CommandState): Promise<number> {
  const [skills, trace2skill] = await Promise.all([
    import('../../skills/index.js'),
    import('../../skills/trace2skill/index.js'),
  ]);
  if (flags.mode === 'create' && flags.skill !== undefined)
    throw new RewardKitError(
      'RK_USAGE',
      '--mode create starts from a skeleton: drop --skill, or use --mode deepen or combined',
    );
  if (flags.mode !== 'create' && flags.skill === undefined)
    throw new RewardKitError(
      'RK_USAGE',
      `--mode ${flags.mode} evolves an existing skill: pass --skill <dir> (or --mode create)`,
    );
  if ((flags.traces === undefined) === (flags.judgeResults === undefined))
    throw new RewardKitError(
      'RK_USAGE',
      'pass one input: --traces <file>, or --judge-results <file> with --labels <file>',
    );
  if (flags.judgeResults !== undefined && flags.labels === undefined)
    throw new RewardKitError('RK_USAGE', '--judge-results needs --labels <file> ({id, verdict} per line)');
  const out = resolve(flags.out);
  const work = resolve(flags.work ?? flags.out);
  refuseEvolveOut({
    dirs: [out, work].map((path) => ({ path, name: path })),
    ...(flags.skill !== undefined && { skill: { path: resolve(flags.skill), name: flags.skill } }),
    out: { path: out, name: flags.out },
    resumeFiles: [OUT_FILES.report, ANALYSES_FILE],
    command: 'evolve',
  });

  const files =
    flags.skill === undefined
      ? skills.skeletonSkill(flags.name, flags.description)
      : skills.readSkillFiles(flags.skill);
  const input =
    flags.traces !== undefined
      ? await skills.readTrajectories(flags.traces)
      : await trace2skill.readJudgeTraces({
          results: flags.judgeResults as string,
          labels: flags.labels as string,
        });
  for (const row of input.rejected)
    for (const error of row.errors) process.stderr.write(`warning: skipped row: ${error}\n`);

  mkdirSync(work, { recursive: true });
  mkdirSync(out, { recursive: true });
  const analysesPath = join(work, ANALYSES_FILE);
  const done = flags.resume ? readResumeLines(analysesPath, trace2skill.AnalysisRecordSchema) : [];
  if (!flags.resume) writeFileSync(analysesPath, '');

  const model = pickModel(
    await loadConfiguredModels(flags.models, breakerGuard(flags, state)),
    flags.model,
    'skill evolve',
  );
  await requireModelsReady([model]);
  const cache = await openResponseCache(flags);
  let evolved: Awaited<ReturnType<typeof skills.evolveSkill>>;
  try {
    evolved = await skills.evolveSkill({
      files,
      trajectories: input.trajectories,
      model: cache.cached(model),
      mode: flags.mode,
      seeds: flags.seeds,
      concurrency: flags.concurrency,
      protect: flags.protect,
      evaluate: trace2skill.referenceEvaluator,
      done,
      onRecord: (record) => appendFileSync(analysesPath, `${JSON.stringify(record)}\n`),
    });
  } finally {
    await cache.close();
  }

  const unanswered = evolveUnanswered(evolved.report);
  // The source skill, unchanged because no analysis came back, is not an evolved skill.
  const written = evolved.report.valid && !unanswered.nothingLearned;
  const skillOut = join(out, OUT_FILES.skill);
  if (written) writeEvolvedSkill(flags.skill, evolved.files, skillOut, skills.writeSkillFiles);
  if (evolved.patch !== undefined)
    writeFileSync(join(out, OUT_FILES.patch), `${JSON.stringify(evolved.patch, null, 2)}\n`);
  writeFileSync(join(out, OUT_FILES.changelog), trace2skill.renderChangelog(evolved));
  const report = {
    ...evolved.report,
    input: {
      file: flags.traces ?? flags.judgeResults,
      rows_read: input.trajectories.length,
      rows_rejected: input.rejected.length,
      errors: input.rejected.flatMap((r) => r.errors),
      ...('unlabelled' in input && { unlabelled: input.unlabelled }),
    },
    out: { skill: written ? skillOut : null, analyses: analysesPath, written },
    fix_patches: evolved.fixPatches,
  };
  writeFileSync(join(out, OUT_FILES.report), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return evolveExitCode('skill evolve', unanswered, written, join(out, OUT_FILES.report));
}

function mode(value: string): EvolveFlags['mode'] {
  if (value === 'create' || value === 'deepen' || value === 'combined') return value;
  throw new InvalidArgumentError(`--mode expects create, deepen or combined, got "${value}".`);
}
