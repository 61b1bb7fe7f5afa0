import type { LlmUsage } from '../../core/index.js';
import type { RoleCall } from '../../judges/index.js';
import { type ChatModel, usageOf } from '../../llm/index.js';
import type { SkillFiles } from '../skill-files.js';
import type { SkillPatch } from '../skill-patch.js';
import type { SkillViolation } from '../skill-violation.js';
import type { AnalysisRecord } from './analysis-record.js';
import type { AnalystCaps, AnalystTools } from './analyst-toolbox.js';
import type { FixEvaluator } from './analyze-trajectory.js';
import { type EvolvedSeed, evolveSeed } from './evolve-seed.js';
import { mapAnalyses } from './map-analyses.js';
import { type SupportedPatch, toSkillPatch } from './supported-patch.js';
import type { Trajectory } from './trajectory.js';

/**
 * `create`: from a skeleton, with every lesson; `deepen`: an existing skill, from failed runs
 * only (successful runs are not analysed); `combined`: an existing skill, from failure and
 * success lessons.
 */
export const EVOLVE_MODES = ['create', 'deepen', 'combined'] as const;
export type EvolveMode = (typeof EVOLVE_MODES)[number];

/** Scores a skill on a split (higher is better): the held-in score picks the seed, held-out is reported. */
export type SkillScorer = (files: SkillFiles, split: 'held_in' | 'held_out') => number | Promise<number>;

export interface EvolveSkillOptions {
  /** The skill to start from (the skeleton in `create` mode); never changed. */
  files: SkillFiles;
  trajectories: readonly Trajectory[];
  model: ChatModel;
  mode?: EvolveMode;
  /** How many seeds to evolve (default 1): seeds 0 … n-1. */
  seeds?: number;
  /** Picks the best seed on the held-in split and reports the held-out one; without it, the seed whose applied edits have the most support wins. */
  score?: SkillScorer;
  evaluate?: FixEvaluator;
  /** The studied agent's tools for failed runs' analysts, and their caps (`analyzeTrajectory`). */
  tools?: AnalystTools;
  analystCaps?: AnalystCaps;
  /** Model calls in flight at most, per stage (default 8). */
  concurrency?: number;
  batchSize?: number;
  maxLevels?: number;
  maxFixRounds?: number;
  protect?: readonly string[];
  reasks?: number;
  /** MAP records of an earlier run (resume) and the hook each new one goes to. */
  done?: readonly AnalysisRecord[];
  onRecord?: (record: AnalysisRecord) => void | Promise<void>;
}

/** What a Trace2Skill run did, counted at every stage. */
export interface EvolveReport {
  readonly spec: 'rk-trace2skill/v1';
  readonly mode: EvolveMode;
  readonly trajectories: {
    readonly given: number;
    readonly passed: number;
    readonly failed: number;
    /** Successful runs not analysed (`deepen` learns from failures only). */
    readonly not_analysed: number;
    readonly analysed: number;
    readonly resumed: number;
    readonly invalid_analyses: number;
    readonly truncated_runs: number;
    /** Tool calls the failed runs' analysts carried out, and those refused at their cap. */
    readonly analyst_tool_calls: number;
    readonly analyst_tool_calls_refused: number;
  };
  readonly lessons: {
    readonly kept: number;
    readonly gated_out: number;
    readonly ungated: number;
    readonly truncated: number;
    readonly runs_gate_passed: number;
    readonly runs_gate_failed: number;
  };
  readonly seeds: readonly SeedSummary[];
  readonly selected_seed: number | undefined;
  readonly selection: 'held_in' | 'support';
  /** The source skill's scores and the selected one's, when there is a scorer. */
  readonly scores?: {
    readonly before: { readonly held_in: number; readonly held_out: number };
    readonly after: { readonly held_in: number; readonly held_out: number };
  };
  readonly valid: boolean;
  readonly violations: readonly SkillViolation[];
  readonly usage: LlmUsage;
  readonly usage_by_role: Record<string, LlmUsage>;
}

/** One seed's counts in the report. */
export interface SeedSummary {
  readonly seed: number;
  readonly valid: boolean;
  readonly held_in?: number;
  readonly support: number;
  readonly patches: {
    readonly proposed: number;
    readonly failed_proposals: number;
    readonly merges: number;
    readonly failed_merges: number;
    readonly levels: number;
    readonly forced_merge: boolean;
    readonly forced_merge_failed: boolean;
    readonly truncated_edits: number;
    readonly unsupported_edits: number;
    readonly failures: readonly string[];
  };
  readonly edits: {
    readonly merged: number;
    readonly dropped_at_translation: number;
    readonly translation: Record<string, number>;
    readonly dropped_by_pairing: number;
    readonly applied: number;
    readonly skipped: number;
    readonly skipped_by_cause: Record<string, number>;
    readonly details: readonly { stage: string; index: number; op: string; file: string; reason: string }[];
  };
  readonly fix_rounds: number;
  readonly usage: LlmUsage;
}

export interface EvolvedSkill {
  /** The selected seed's skill (the source files when no seed gave a valid skill). */
  readonly files: SkillFiles;
  /** The merged patch as applied (after anchor translation), plus the fix patches. */
  readonly patch: SkillPatch | undefined;
  readonly fixPatches: readonly SkillPatch[];
  /** The merged patch with each edit's support (for the changelog's prevalence). */
  readonly merged: SupportedPatch | undefined;
  readonly records: readonly AnalysisRecord[];
  readonly report: EvolveReport;
  readonly calls: readonly RoleCall[];
}

/**
 * Trace2Skill end to end: the MAP analyses (resumable), then for each seed proposals, the
 * hierarchical REDUCE, anchor translation, apply and validation with fix rounds; the best valid
 * seed is kept. Nothing is written: the caller writes `files`.
 */
export async function evolveSkill(options: EvolveSkillOptions): Promise<EvolvedSkill> {
  const mode = options.mode ?? 'combined';
  const seeds = options.seeds ?? 1;
  if (!Number.isInteger(seeds) || seeds < 1)
    throw new RangeError(`seeds must be a whole number ≥ 1, got ${seeds}`);
  const analysed = options.trajectories.filter((t) => mode !== 'deepen' || !t.outcome.pass);
  const map = await mapAnalyses(analysed, {
    model: options.model,
    ...(options.evaluate !== undefined && { evaluate: options.evaluate }),
    ...(options.tools !== undefined && { tools: options.tools }),
    ...(options.analystCaps !== undefined && { analystCaps: options.analystCaps }),
    ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
    ...(options.reasks !== undefined && { reasks: options.reasks }),
    ...(options.done !== undefined && { done: options.done }),
    ...(options.onRecord !== undefined && { onRecord: options.onRecord }),
  });
  const calls: RoleCall[] = [...map.calls];
  const evolved: EvolvedSeed[] = [];
  for (let seed = 0; seed < seeds; seed++) {
    const got = await evolveSeed(options.files, map.records, {
      model: options.model,
      seed,
      ...(options.batchSize !== undefined && { batchSize: options.batchSize }),
      ...(options.maxLevels !== undefined && { maxLevels: options.maxLevels }),
      ...(options.maxFixRounds !== undefined && { maxFixRounds: options.maxFixRounds }),
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      ...(options.protect !== undefined && { protect: options.protect }),
      ...(options.reasks !== undefined && { reasks: options.reasks }),
    });
    evolved.push(got);
    calls.push(...got.calls);
  }
  const heldIn = new Map<number, number>();
  if (options.score)
    for (const e of evolved) if (e.valid) heldIn.set(e.seed, await options.score(e.files, 'held_in'));
  const valid = evolved.filter((e) => e.valid);
  const rank = (e: EvolvedSeed) => (options.score ? (heldIn.get(e.seed) as number) : e.support);
  const best = valid.reduce<EvolvedSeed | undefined>(
    (b, e) => (b === undefined || rank(e) > rank(b) ? e : b),
    undefined,
  );
  let scores: EvolveReport['scores'];
  if (options.score && best) {
    scores = {
      before: {
        held_in: await options.score(options.files, 'held_in'),
        held_out: await options.score(options.files, 'held_out'),
      },
      after: {
        held_in: heldIn.get(best.seed) as number,
        held_out: await options.score(best.files, 'held_out'),
      },
    };
  }
  const records = map.records;
  const ok = records.filter((r) => r.status === 'ok');
  const roles = new Set(calls.map((c) => c.role));
  const shown = best ?? evolved[0];
  const report: EvolveReport = {
    spec: 'rk-trace2skill/v1',
    mode,
    trajectories: {
      given: options.trajectories.length,
      passed: options.trajectories.filter((t) => t.outcome.pass).length,
      failed: options.trajectories.filter((t) => !t.outcome.pass).length,
      not_analysed: options.trajectories.length - analysed.length,
      analysed: analysed.length - map.resumed,
      resumed: map.resumed,
      invalid_analyses: records.length - ok.length,
      truncated_runs: map.truncatedRuns,
      analyst_tool_calls: records.reduce((n, r) => n + (r.tool_calls ?? 0), 0),
      analyst_tool_calls_refused: records.reduce((n, r) => n + (r.tool_calls_refused ?? 0), 0),
    },
    lessons: {
      kept: ok.reduce((n, r) => n + r.items.length, 0),
      gated_out: ok.reduce((n, r) => n + r.gated_out, 0),
      ungated: ok.filter((r) => r.gate === 'ungated').reduce((n, r) => n + r.items.length, 0),
      truncated: ok.reduce((n, r) => n + r.truncated, 0),
      runs_gate_passed: ok.filter((r) => r.gate === 'passed').length,
      runs_gate_failed: ok.filter((r) => r.gate === 'failed').length,
    },
    seeds: evolved.map((e) => seedSummary(e, heldIn.get(e.seed))),
    selected_seed: best?.seed,
    selection: options.score ? 'held_in' : 'support',
    ...(scores !== undefined && { scores }),
    valid: best !== undefined,
    violations: best !== undefined ? [] : (shown?.applied?.violations ?? []),
    usage: usageOf(calls),
    usage_by_role: Object.fromEntries(
      [...roles].map((role) => [role ?? 'unknown', usageOf(calls.filter((c) => c.role === role))]),
    ),
  };
  return {
    files: best?.files ?? options.files,
    patch: best?.applied?.patch ?? (best?.merged ? toSkillPatch(best.merged) : undefined),
    fixPatches: (best?.applied?.fixRounds ?? []).flatMap((r) => (r.patch ? [r.patch] : [])),
    merged: best?.merged,
    records,
    report,
    calls,
  };
}

function seedSummary(e: EvolvedSeed, heldIn: number | undefined): SeedSummary {
  const a = e.applied;
  const byCause: Record<string, number> = {};
  for (const s of a?.skipped ?? []) byCause[s.cause] = (byCause[s.cause] ?? 0) + 1;
  return {
    seed: e.seed,
    valid: e.valid,
    ...(heldIn !== undefined && { held_in: heldIn }),
    support: e.support,
    patches: {
      proposed: e.proposed.patches.length + e.proposed.failed,
      failed_proposals: e.proposed.failed,
      merges: e.reduced.merges,
      failed_merges: e.reduced.failedMerges,
      levels: e.reduced.levels,
      forced_merge: e.reduced.forcedMerge,
      forced_merge_failed: e.reduced.forcedMergeFailed,
      truncated_edits: e.reduced.truncatedEdits,
      unsupported_edits: e.reduced.unsupportedEdits,
      failures: [...e.proposed.failures, ...e.reduced.failures],
    },
    edits: {
      merged: e.merged?.edits.length ?? 0,
      dropped_at_translation: a?.untranslated.length ?? 0,
      translation: a?.matches ?? { exact: 0, whitespace: 0, case: 0 },
      dropped_by_pairing: a?.dropped.length ?? 0,
      applied: a?.applied ?? 0,
      skipped: a?.skipped.length ?? 0,
      skipped_by_cause: byCause,
      details: [
        ...(a?.untranslated ?? []).map((u) => ({
          stage: 'translation',
          index: u.index,
          op: u.edit.op,
          file: u.edit.file,
          reason: u.reason,
        })),
        ...(a?.dropped ?? []).map((d) => ({
          stage: 'pairing',
          index: d.index,
          op: d.edit.op,
          file: d.edit.file,
          reason: d.reason,
        })),
        ...(a?.skipped ?? []).map((s) => ({
          stage: 'apply',
          index: s.index,
          op: s.edit.op,
          file: s.edit.file,
          reason: `${s.cause}: ${s.reason}`,
        })),
      ],
    },
    fix_rounds: a?.fixRounds.length ?? 0,
    usage: usageOf(e.calls),
  };
}
