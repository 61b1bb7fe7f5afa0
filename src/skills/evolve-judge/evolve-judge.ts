import type { LlmUsage } from '../../core/index.js';
import { RewardKitError } from '../../core/index.js';
import { type ChatModel, usageOf } from '../../llm/index.js';
import { addUsage } from '../../llm/usage-of.js';
import { parseSkill } from '../parse-skill.js';
import type { SkillFiles } from '../skill-files.js';
import { DEFAULT_SKILL_RM_CAPS } from '../skill-rm/skill-rm-caps.js';
import { createSkillRmJudge } from '../skill-rm/skill-rm-judge.js';
import type { SkillRmOptions } from '../skill-rm/skill-rm-options.js';
import { formatViolation } from '../skill-violation.js';
import type { AnalysisRecord } from '../trace2skill/analysis-record.js';
import type { AnalystCaps } from '../trace2skill/analyst-toolbox.js';
import { type EvolvedSkill, type EvolveReport, evolveSkill } from '../trace2skill/evolve-skill.js';
import { judgePairs } from './judge-pairs.js';
import type { JudgedPair } from './judged-pair.js';
import type { LabelledPair, ShownPair } from './labelled-pair.js';
import { pairAnalystTools } from './pair-analyst-tools.js';
import { rerunGate } from './rerun-gate.js';
import { skillHash } from './skill-hash.js';
import { type SplitAccuracy, splitAccuracy } from './split-accuracy.js';
import { type PairSplitName, splitPairs } from './split-pairs.js';
import { verdictTrajectory } from './verdict-trajectory.js';

/** The judging phases whose cost is reported apart. */
export const JUDGE_PHASES = [
  'judge_held_in_before',
  'judge_held_in_seeds',
  'judge_held_out_before',
  'judge_held_out_after',
  'judge_gate',
] as const;
export type JudgePhase = (typeof JUDGE_PHASES)[number];

export interface EvolveJudgeOptions {
  /** The skill the judge starts with (a valid package); never changed. */
  readonly files: SkillFiles;
  readonly pairs: readonly LabelledPair[];
  /** The Skill-RM judge's configuration, less its skill: each skill scored gets a judge of its own. */
  readonly judge: Omit<SkillRmOptions, 'skill'> & { readonly bothOrders?: boolean };
  /** The Trace2Skill analyst (every analyst role). */
  readonly analyst: ChatModel;
  /**
   * Caps of each failed run's analyst, which may call the judge's resource tools on its pair
   * (default `DEFAULT_ANALYST_CAPS`; `maxCalls: 0`: it only reads).
   */
  readonly analystCaps?: AnalystCaps;
  /** The fraction of pairs held out (default 0.5). */
  readonly heldOut?: number;
  /** Seeds the split and the positions (default 0). */
  readonly seed?: number;
  /** Trace2Skill seeds 0 … n-1 (default 1); the best on the held-in split is kept. */
  readonly seeds?: number;
  /** Judgments and analyst calls in flight at most (default 8). */
  readonly concurrency?: number;
  readonly protect?: readonly string[];
  /** Judgments of an earlier run (resume) and the hook each new one goes to. */
  readonly judged?: readonly JudgedPair[];
  readonly onJudged?: (judged: JudgedPair) => void | Promise<void>;
  /** MAP records of an earlier run (resume) and the hook each new one goes to. */
  readonly analyses?: readonly AnalysisRecord[];
  readonly onRecord?: (record: AnalysisRecord) => void | Promise<void>;
}

/** One judging phase's cost: its usage, the pairs judged and the judgments reused from an earlier run. */
export type PhaseCost = LlmUsage & { readonly judgments: number; readonly resumed: number };

export interface EvolveJudgeReport {
  readonly spec: 'rk-evolve-judge/v1';
  readonly seed: number;
  readonly held_out_fraction: number;
  /** Each split's pairs with where the better response was shown (the position the seed drew). */
  readonly split: Record<PairSplitName, ReadonlyArray<{ id: string; better: 'first' | 'second' }>>;
  /** Strict accuracy (only a right verdict counts) of the source skill and of the selected one. */
  readonly accuracy: {
    readonly before: { readonly held_in: SplitAccuracy; readonly held_out?: SplitAccuracy };
    readonly after?: { readonly held_in: SplitAccuracy; readonly held_out: SplitAccuracy };
  };
  /** After minus before on the held-out split; absent when no seed gave a valid skill. */
  readonly held_out_gain?: number;
  readonly trajectories: { readonly passed: number; readonly failed: number };
  readonly cost: Record<JudgePhase, PhaseCost> & {
    readonly evolve: LlmUsage;
    readonly total: LlmUsage;
  };
  /** The Trace2Skill run (`rk-trace2skill/v1`). */
  readonly evolve: EvolveReport;
}

export interface EvolvedJudge {
  readonly evolved: EvolvedSkill;
  readonly report: EvolveJudgeReport;
}

const NO_USAGE = usageOf([]);

/**
 * The closed loop: the Skill-RM judge with the source skill judges the held-in pairs; each judged
 * pair becomes a trajectory (a right verdict a success, any other a failure); Trace2Skill evolves
 * the skill (combined mode) with the judge's held-in accuracy as the scorer that picks the seed;
 * the source and the selected skill are then judged on the held-out pairs, which never feed the
 * evolution. A failed run's lessons are pass-gated by judging its pair again with them in the skill
 * (`rerunGate`): the analyst is told a verdict was wrong, never which response is better. Judgments are memoized by skill content, so the source's held-in judgments serve as
 * both the trajectories and its held-in score.
 */
export async function evolveJudge(options: EvolveJudgeOptions): Promise<EvolvedJudge> {
  const heldOut = options.heldOut ?? 0.5;
  const seed = options.seed ?? 0;
  const concurrency = options.concurrency ?? 8;
  const split = splitPairs(options.pairs, { heldOut, seed });
  const source = parseSkill(options.files);
  if (!source.ok)
    throw new RewardKitError(
      'RK_USAGE',
      `the skill is not valid:\n${source.violations.map((v) => formatViolation(v)).join('\n')}`,
    );
  const sourceHash = skillHash(options.files);
  const done = new Map((options.judged ?? []).map((j) => [j.key, j]));
  const cost = new Map<JudgePhase, PhaseCost>(
    JUDGE_PHASES.map((p) => [p, { ...NO_USAGE, judgments: 0, resumed: 0 }]),
  );
  const memo = new Map<string, Promise<JudgedPair[]>>();

  const judgeSplit = (files: SkillFiles, name: PairSplitName): Promise<JudgedPair[]> => {
    const hash = skillHash(files);
    const key = `${hash}\u0000${name}`;
    let got = memo.get(key);
    if (got === undefined) {
      // Every seed's skill is judged on held-in (to pick one); only the selected one on held-out.
      const phase: JudgePhase =
        hash === sourceHash
          ? `judge_${name}_before`
          : name === 'held_in'
            ? 'judge_held_in_seeds'
            : 'judge_held_out_after';
      got = (async () => {
        const parsed = hash === sourceHash ? source : parseSkill(files);
        if (!parsed.ok) throw new RewardKitError('RK_INTERNAL', 'an evolved skill to score is not valid');
        const { judged, resumed } = await judgePairs(split[name], {
          judge: createSkillRmJudge({ ...options.judge, skill: parsed.skill }),
          skill: hash,
          concurrency,
          done,
          ...(options.onJudged !== undefined && { onJudged: options.onJudged }),
        });
        const was = cost.get(phase) as PhaseCost;
        const fresh = judged.filter((j) => !done.has(j.key));
        cost.set(phase, {
          ...fresh.reduce((u, j) => addUsage(u, j.usage), was as LlmUsage),
          judgments: was.judgments + judged.length,
          resumed: was.resumed + resumed,
        });
        return judged;
      })();
      memo.set(key, got);
    }
    return got;
  };
  const accuracyOf = async (files: SkillFiles, name: PairSplitName) =>
    splitAccuracy(await judgeSplit(files, name));

  const heldIn = await judgeSplit(options.files, 'held_in');
  const byId = new Map(split.held_in.map((p) => [p.id, p]));
  const trajectories = heldIn.map((j) => verdictTrajectory(byId.get(j.id) as ShownPair, j));
  // The gate re-judges a failed pair under the analyst's lessons; its cost is a phase of its own.
  const gate = rerunGate({
    files: options.files,
    pairs: byId,
    judgeWith: (skill) => createSkillRmJudge({ ...options.judge, skill }),
    onRerun: (_pair, judgment) => {
      const was = cost.get('judge_gate') as PhaseCost;
      cost.set('judge_gate', {
        ...addUsage(was, usageOf(judgment.calls)),
        judgments: was.judgments + 1,
        resumed: was.resumed,
      });
    },
  });
  const evolved = await evolveSkill({
    files: options.files,
    trajectories,
    model: options.analyst,
    mode: 'combined',
    ...(options.seeds !== undefined && { seeds: options.seeds }),
    score: async (files, name) => (await accuracyOf(files, name)).accuracy,
    evaluate: gate,
    tools: pairAnalystTools({
      skill: source.skill,
      pairs: byId,
      runtime: options.judge.runtime,
      caps: { ...DEFAULT_SKILL_RM_CAPS, ...options.judge.caps },
      ...(options.judge.benchmarkVisible !== undefined && {
        benchmarkVisible: options.judge.benchmarkVisible,
      }),
    }),
    ...(options.analystCaps !== undefined && { analystCaps: options.analystCaps }),
    concurrency,
    ...(options.protect !== undefined && { protect: options.protect }),
    ...(options.analyses !== undefined && { done: options.analyses }),
    ...(options.onRecord !== undefined && { onRecord: options.onRecord }),
  });

  const before = {
    held_in: await accuracyOf(options.files, 'held_in'),
    // evolveSkill scored the held-out split only when a seed gave a valid skill: memoized then, skipped otherwise.
    ...(evolved.report.valid && { held_out: await accuracyOf(options.files, 'held_out') }),
  };
  const after = evolved.report.valid
    ? {
        held_in: await accuracyOf(evolved.files, 'held_in'),
        held_out: await accuracyOf(evolved.files, 'held_out'),
      }
    : undefined;
  const phases = Object.fromEntries(cost) as Record<JudgePhase, PhaseCost>;
  const judging = JUDGE_PHASES.reduce((u, p) => addUsage(u, stripCounts(phases[p])), NO_USAGE);
  const report: EvolveJudgeReport = {
    spec: 'rk-evolve-judge/v1',
    seed,
    held_out_fraction: heldOut,
    split: {
      held_in: split.held_in.map((p) => ({ id: p.id, better: p.better })),
      held_out: split.held_out.map((p) => ({ id: p.id, better: p.better })),
    },
    accuracy: { before, ...(after !== undefined && { after }) },
    ...(after !== undefined &&
      before.held_out !== undefined && { held_out_gain: after.held_out.accuracy - before.held_out.accuracy }),
    trajectories: {
      passed: trajectories.filter((t) => t.outcome.pass).length,
      failed: trajectories.filter((t) => !t.outcome.pass).length,
    },
    cost: { ...phases, evolve: evolved.report.usage, total: addUsage(judging, evolved.report.usage) },
    evolve: evolved.report,
  };
  return { evolved, report };
}

const stripCounts = ({ judgments: _j, resumed: _r, ...usage }: PhaseCost): LlmUsage => usage;
