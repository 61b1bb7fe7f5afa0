import { type ApplySkillPatchOptions, applySkillPatch, type SkippedEdit } from './apply-skill-patch.js';
import { type DroppedEdit, pairCreatedReferences } from './pair-created-references.js';
import { parseSkill } from './parse-skill.js';
import type { SkillFiles } from './skill-files.js';
import type { SkillResult } from './skill-package.js';
import type { SkillPatch } from './skill-patch.js';

/** What one patch did to a skill: every edit is applied, dropped or skipped, and counted. */
export interface SkillPatchReport {
  /** The edited copy of the files. */
  readonly files: SkillFiles;
  readonly applied: number;
  /** Edits removed by create/link pairing before anything was applied. */
  readonly dropped: readonly DroppedEdit[];
  /** Edits that did not apply (indexes into the patch as proposed). */
  readonly skipped: readonly SkippedEdit[];
  /** The edited skill through the validator. */
  readonly result: SkillResult;
}

/**
 * A patch's path through the no-LLM stages of Trace2Skill: create/link pairing, the apply engine
 * on a copy, then the package validator on the result.
 */
export function patchSkill(
  files: SkillFiles,
  patch: SkillPatch,
  options: ApplySkillPatchOptions = {},
): SkillPatchReport {
  const paired = pairCreatedReferences(patch, files);
  // Skipped edits are reported by their index in the patch as proposed, not as paired.
  const kept = patch.edits.map((_, i) => i).filter((i) => !paired.dropped.some((d) => d.index === i));
  const applied = applySkillPatch(files, paired.patch, options);
  return {
    files: applied.files,
    applied: applied.applied,
    dropped: paired.dropped,
    skipped: applied.skipped.map((s) => ({ ...s, index: kept[s.index] as number })),
    result: parseSkill(applied.files),
  };
}
