import { applyTextEdit, type SkipCause } from './apply-skill-edit.js';
import { packagePath } from './package-path.js';
import { SKILL_FILE, type SkillFiles } from './skill-files.js';
import type { SkillEdit, SkillPatch } from './skill-patch.js';

/** An edit that left the skill unchanged, by its index in the patch, with why. */
export interface SkippedEdit {
  readonly index: number;
  readonly edit: SkillEdit;
  readonly cause: SkipCause;
  readonly reason: string;
}

export interface AppliedSkillPatch {
  /** The edited copy; the files passed in are never changed. */
  readonly files: SkillFiles;
  readonly applied: number;
  readonly skipped: readonly SkippedEdit[];
}

export interface ApplySkillPatchOptions {
  /**
   * Files no edit may touch: package paths (`resources.yaml`), or folders ending in `/`
   * (`scripts/`). An edit of one is skipped and counted as `protected`.
   */
  readonly protect?: readonly string[];
}

/**
 * Applies a patch to a copy of a skill's files, edit by edit in order, no LLM involved. Each edit
 * applies whole or is skipped with its cause (a missing anchor, a protected or missing file, a
 * field its op needs) — the file it aimed at stays as it was.
 */
export function applySkillPatch(
  files: SkillFiles,
  patch: SkillPatch,
  options: ApplySkillPatchOptions = {},
): AppliedSkillPatch {
  const out = new Map(files);
  const skipped: SkippedEdit[] = [];
  let applied = 0;
  const isProtected = (path: string) =>
    (options.protect ?? []).some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));
  patch.edits.forEach((edit, index) => {
    const outcome = applyEdit(out, edit, isProtected);
    if (outcome === undefined) applied++;
    else skipped.push({ index, edit, ...outcome });
  });
  return { files: out, applied, skipped };
}

/** Applies one edit to `files` in place; returns why not when it does not apply. */
function applyEdit(
  files: Map<string, string>,
  edit: SkillEdit,
  isProtected: (path: string) => boolean,
): { cause: SkipCause; reason: string } | undefined {
  const path = packagePath(edit.file);
  if (path === undefined) return { cause: 'bad_path', reason: `"${edit.file}" is outside the package` };
  if (isProtected(path)) return { cause: 'protected', reason: `${path} is protected` };
  const text = files.get(path);
  if (edit.op === 'create') {
    if (text !== undefined) return { cause: 'file_exists', reason: `${path} exists; edit it instead` };
    if (edit.content === undefined) return { cause: 'missing_field', reason: 'the op needs "content"' };
    files.set(path, edit.content.endsWith('\n') ? edit.content : `${edit.content}\n`);
    return undefined;
  }
  if (text === undefined) return { cause: 'file_not_found', reason: `${path} does not exist` };
  if (edit.op === 'delete_file') {
    if (path === SKILL_FILE)
      return { cause: 'protected', reason: 'SKILL.md is the skill; it cannot be deleted' };
    files.delete(path);
    return undefined;
  }
  const outcome = applyTextEdit(text, { ...edit, op: edit.op });
  if (!outcome.ok) return { cause: outcome.cause, reason: outcome.reason };
  files.set(path, outcome.text);
  return undefined;
}
