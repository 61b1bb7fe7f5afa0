import { posix } from 'node:path';
import { localLinks } from './markdown-links.js';
import { packagePath } from './package-path.js';
import { isReferencePath, SKILL_FILE, type SkillFiles } from './skill-files.js';
import type { SkillEdit, SkillPatch } from './skill-patch.js';

/** An edit a patch lost before it was applied, by its index in the patch. */
export interface DroppedEdit {
  readonly index: number;
  readonly edit: SkillEdit;
  readonly reason: string;
}

interface Indexed {
  readonly edit: SkillEdit;
  readonly index: number;
}

/**
 * Create/link pairing: a new `references/x.md` survives only if an edit of SKILL.md in the same
 * patch links it (an unlinked reference is never read), and an edit whose content links a
 * package file survives only if the file exists or the same patch creates it (no dangling links).
 * Dropping one edit can orphan another (a create whose only link went, a link whose create went),
 * so both rules run until nothing more is dropped.
 */
export function pairCreatedReferences(
  patch: SkillPatch,
  files: SkillFiles,
): { patch: SkillPatch; dropped: DroppedEdit[] } {
  const dropped: DroppedEdit[] = [];
  let edits: Indexed[] = patch.edits.map((edit, index) => ({ edit, index }));
  for (;;) {
    const before = edits.length;
    const created = new Set(
      edits.filter(({ edit }) => edit.op === 'create').map(({ edit }) => packagePath(edit.file)),
    );
    edits = edits.filter(({ edit, index }) => {
      const missing = linkedPaths(edit).find((path) => !files.has(path) && !created.has(path));
      if (missing === undefined) return true;
      dropped.push({
        index,
        edit,
        reason: `links ${missing}, which neither exists nor is created by this patch`,
      });
      return false;
    });
    const linkedFromSkill = new Set(
      edits.filter(({ edit }) => edit.file === SKILL_FILE).flatMap(({ edit }) => linkedPaths(edit)),
    );
    edits = edits.filter(({ edit, index }) => {
      const path = packagePath(edit.file);
      if (edit.op !== 'create' || path === undefined || !isReferencePath(path) || files.has(path))
        return true;
      if (linkedFromSkill.has(path)) return true;
      dropped.push({
        index,
        edit,
        reason: `creates ${path}, but no edit of SKILL.md in this patch links it`,
      });
      return false;
    });
    if (edits.length === before) break;
  }
  dropped.sort((a, b) => a.index - b.index);
  return { patch: { ...patch, edits: edits.map(({ edit }) => edit) }, dropped };
}

/** The package paths an edit's new content links to, resolved from the edited file's folder. */
function linkedPaths(edit: SkillEdit): string[] {
  if (edit.content === undefined) return [];
  const from = posix.dirname(packagePath(edit.file) ?? '.');
  return localLinks(edit.content)
    .map((link) => packagePath(link.target, from === '.' ? '' : from))
    .filter((path): path is string => path !== undefined);
}
