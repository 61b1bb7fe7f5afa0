import { createRng } from '../../core/index.js';
import type { RoleCall } from '../../judges/index.js';
import type { ChatModel } from '../../llm/index.js';
import { parseSkill } from '../parse-skill.js';
import type { SkillFiles } from '../skill-files.js';
import type { AnalysisRecord } from './analysis-record.js';
import { type AppliedWithFixes, applyWithFixes } from './apply-with-fixes.js';
import { type ProposedPatches, proposePatches } from './propose-patches.js';
import { type ReducedPatches, reducePatches } from './reduce-patches.js';
import type { SupportedPatch } from './supported-patch.js';

export interface EvolveSeedOptions {
  model: ChatModel;
  /** The sampling seed; seeds other than 0 also shuffle the records before batching. */
  seed: number;
  batchSize?: number;
  maxLevels?: number;
  maxFixRounds?: number;
  concurrency?: number;
  protect?: readonly string[];
  reasks?: number;
}

/** One seed's evolution: proposals, REDUCE, then translation, apply and fix rounds. */
export interface EvolvedSeed {
  readonly seed: number;
  readonly proposed: Omit<ProposedPatches, 'calls'>;
  readonly reduced: Omit<ReducedPatches, 'calls'>;
  /** The merged patch before translation; undefined when no proposal survived. */
  readonly merged: SupportedPatch | undefined;
  readonly applied: Omit<AppliedWithFixes, 'calls'> | undefined;
  /** The evolved files (the source files when nothing was merged or the result is invalid). */
  readonly files: SkillFiles;
  readonly valid: boolean;
  /** Σ prevalence of the edits that applied: the selection score when there is no scorer. */
  readonly support: number;
  readonly calls: RoleCall[];
}

/** Proposals, the hierarchical merge and the apply stages for one seed, from the MAP records. */
export async function evolveSeed(
  files: SkillFiles,
  records: readonly AnalysisRecord[],
  options: EvolveSeedOptions,
): Promise<EvolvedSeed> {
  const common = {
    model: options.model,
    seed: options.seed,
    ...(options.reasks !== undefined && { reasks: options.reasks }),
    ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
  };
  const ordered = options.seed === 0 ? [...records] : createRng(options.seed).shuffle(records);
  const proposed = await proposePatches(ordered, files, {
    ...common,
    ...(options.batchSize !== undefined && { batchSize: options.batchSize }),
  });
  const reduced = await reducePatches(proposed.patches, files, {
    ...common,
    ...(options.batchSize !== undefined && { batchSize: options.batchSize }),
    ...(options.maxLevels !== undefined && { maxLevels: options.maxLevels }),
  });
  const calls = [...proposed.calls, ...reduced.calls];
  const { calls: _p, ...proposedCounts } = proposed;
  const { calls: _r, ...reducedCounts } = reduced;
  const merged = reduced.patch;
  if (merged === undefined) {
    return {
      seed: options.seed,
      proposed: proposedCounts,
      reduced: reducedCounts,
      merged,
      applied: undefined,
      files,
      // Nothing to apply: the seed is as valid as the skill it started from.
      valid: parseSkill(files).ok,
      support: 0,
      calls,
    };
  }
  const applied = await applyWithFixes(files, merged, {
    ...common,
    ...(options.protect !== undefined && { protect: options.protect }),
    ...(options.maxFixRounds !== undefined && { maxFixRounds: options.maxFixRounds }),
  });
  calls.push(...applied.calls);
  const { calls: _a, ...appliedCounts } = applied;
  // The translated patch keeps the merged edits in order minus the untranslated ones.
  const untranslated = new Set(applied.untranslated.map((u) => u.index));
  const kept = merged.edits.filter((_, i) => !untranslated.has(i));
  const lost = new Set([...applied.dropped.map((d) => d.index), ...applied.skipped.map((s) => s.index)]);
  const support = kept.reduce((sum, e, i) => (lost.has(i) ? sum : sum + e.support.length), 0);
  return {
    seed: options.seed,
    proposed: proposedCounts,
    reduced: reducedCounts,
    merged,
    applied: appliedCounts,
    files: applied.valid ? applied.files : files,
    valid: applied.valid,
    support,
    calls,
  };
}
