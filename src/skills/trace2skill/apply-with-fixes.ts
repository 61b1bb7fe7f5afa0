import type { RoleCall } from '../../judges/index.js';
import type { ChatModel } from '../../llm/index.js';
import type { SkippedEdit } from '../apply-skill-patch.js';
import type { DroppedEdit } from '../pair-created-references.js';
import { patchSkill } from '../patch-skill.js';
import type { SkillFiles } from '../skill-files.js';
import type { SkillPatch } from '../skill-patch.js';
import { formatViolation, type SkillViolation } from '../skill-violation.js';
import { patchFixerRole } from './patch-roles.js';
import { renderSkillFiles } from './render-skill-files.js';
import { editOf, type SupportedPatch, toSkillPatch } from './supported-patch.js';
import { type AnchorMatch, translateAnchors, type UntranslatedEdit } from './translate-anchors.js';

export interface ApplyWithFixesOptions {
  model: ChatModel;
  /** Files no edit may touch (`applySkillPatch`'s `protect`), fix patches included. */
  protect?: readonly string[];
  /** Fix rounds at most after a failed validation (default 3). */
  maxFixRounds?: number;
  seed?: number;
  reasks?: number;
}

/** One fix round: the fixer's patch and what it did. */
export interface FixRound {
  readonly patch: SkillPatch | undefined;
  /** Why the fixer gave no patch. */
  readonly failure?: string;
  readonly applied: number;
  readonly skipped: number;
  readonly dropped: number;
  readonly violationsAfter: number;
}

export interface AppliedWithFixes {
  readonly files: SkillFiles;
  /** The merged patch after anchor translation: what was applied. */
  readonly patch: SkillPatch;
  readonly applied: number;
  /** Edits dropped at translation (anchor not found or not unique). */
  readonly untranslated: readonly UntranslatedEdit[];
  readonly matches: Record<AnchorMatch, number>;
  /** Edits dropped by create/link pairing. */
  readonly dropped: readonly DroppedEdit[];
  /** Edits the apply engine skipped, with causes. */
  readonly skipped: readonly SkippedEdit[];
  readonly fixRounds: readonly FixRound[];
  readonly valid: boolean;
  readonly violations: readonly SkillViolation[];
  readonly calls: RoleCall[];
}

/**
 * Translation, apply and validation of the merged patch, then — while the edited skill fails the
 * validator — a minimal fix patch asked of the model and put through the same stages, up to
 * `maxFixRounds` times. Nothing is written; the files passed in are never changed.
 */
export async function applyWithFixes(
  files: SkillFiles,
  merged: SupportedPatch,
  options: ApplyWithFixesOptions,
): Promise<AppliedWithFixes> {
  const protect = { protect: options.protect ?? [] };
  const translated = translateAnchors(files, merged, protect);
  const patch = toSkillPatch(translated.patch);
  const report = patchSkill(files, patch, protect);
  let current = report.files;
  let result = report.result;
  const fixRounds: FixRound[] = [];
  const calls: RoleCall[] = [];
  while (!result.ok && fixRounds.length < (options.maxFixRounds ?? 3)) {
    const violations = result.violations;
    const outcome = await patchFixerRole(
      { skill: renderSkillFiles(current), violations: violations.map((v) => formatViolation(v)).join('\n') },
      {
        model: options.model,
        ...(options.seed !== undefined && { seed: options.seed }),
        ...(options.reasks !== undefined && { reasks: options.reasks }),
      },
    );
    calls.push(...outcome.calls);
    if (outcome.status !== 'ok') {
      fixRounds.push({
        patch: undefined,
        failure: outcome.reason,
        applied: 0,
        skipped: 0,
        dropped: 0,
        violationsAfter: violations.length,
      });
      continue;
    }
    const fix: SupportedPatch = {
      reasoning: outcome.value.reasoning,
      changelog: outcome.value.changelog,
      edits: outcome.value.edits.map((reply) => ({ edit: editOf(reply), support: [] })),
    };
    const fixTranslated = translateAnchors(current, fix, protect);
    const fixPatch = toSkillPatch(fixTranslated.patch);
    const fixed = patchSkill(current, fixPatch, protect);
    current = fixed.files;
    result = fixed.result;
    fixRounds.push({
      patch: fixPatch,
      applied: fixed.applied,
      skipped: fixed.skipped.length,
      dropped: fixed.dropped.length + fixTranslated.dropped.length,
      violationsAfter: fixed.result.ok ? 0 : fixed.result.violations.length,
    });
  }
  return {
    files: current,
    patch,
    applied: report.applied,
    untranslated: translated.dropped,
    matches: translated.matches,
    dropped: report.dropped,
    skipped: report.skipped,
    fixRounds,
    valid: result.ok,
    violations: result.ok ? [] : result.violations,
    calls,
  };
}
