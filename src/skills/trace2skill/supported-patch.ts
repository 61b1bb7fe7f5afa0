import { z } from 'zod';
import { SKILL_EDIT_OPS, type SkillEdit, type SkillPatch } from '../skill-patch.js';

/** An edit with the trajectories that support it: its prevalence is `support.length`, counted in code. */
export interface SupportedEdit {
  readonly edit: SkillEdit;
  /** Instance ids of the analysed trajectories behind this edit, distinct and sorted. */
  readonly support: readonly string[];
}

/** A patch whose every edit carries its support: what the proposal and merge stages pass along. */
export interface SupportedPatch {
  readonly reasoning: string;
  readonly edits: readonly SupportedEdit[];
  readonly changelog: string;
}

/** The plain patch (`SkillPatchSchema`) of a supported one. */
export function toSkillPatch(patch: SupportedPatch): SkillPatch {
  return { reasoning: patch.reasoning, edits: patch.edits.map((e) => e.edit), changelog: patch.changelog };
}

/** Distinct sorted ids. */
export function supportOf(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort();
}

/**
 * An edit as a model writes it: every field present, `null` where the op does not use it (strict
 * structured output needs that; `SkillEditSchema` reads null as absent).
 */
export const EditReplyFields = {
  file: z.string().min(1),
  op: z.enum(SKILL_EDIT_OPS),
  target_section: z.string().nullable(),
  target_text: z.string().nullable(),
  content: z.string().nullable(),
  old_text: z.string().nullable(),
  after_section: z.string().nullable(),
};

/** The `SkillEdit` of an edit reply (nulls dropped, extra fields left out). */
export function editOf(reply: {
  file: string;
  op: SkillEdit['op'];
  target_section: string | null;
  target_text: string | null;
  content: string | null;
  old_text: string | null;
  after_section: string | null;
}): SkillEdit {
  return {
    file: reply.file,
    op: reply.op,
    target_section: reply.target_section ?? undefined,
    target_text: reply.target_text ?? undefined,
    content: reply.content ?? undefined,
    old_text: reply.old_text ?? undefined,
    after_section: reply.after_section ?? undefined,
  };
}
