import { z } from 'zod';

/** The edit operations a Trace2Skill patch may use. */
export const SKILL_EDIT_OPS = [
  'insert_after',
  'insert_before',
  'append_to_section',
  'replace_in_section',
  'add_section',
  'delete_section',
  'create',
  'delete_file',
] as const;

export type SkillEditOp = (typeof SKILL_EDIT_OPS)[number];

// Models write `null` for fields an op does not use; null and absent mean the same here.
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

/**
 * One edit of a patch, with the fields of the notes. Which fields an op needs is checked when it is
 * applied (a missing one skips the edit with a reason), so a patch is never refused for the
 * fields of the ops it does not use.
 *
 * - `target_section`: an exact header line (`## Math answers`); scopes `insert_*`, names the
 *   section for `append_to_section`, `replace_in_section`, `delete_section`.
 * - `target_text`: the exact text `insert_after` / `insert_before` anchor on.
 * - `old_text`: what `replace_in_section` replaces with `content`.
 * - `after_section`: the header line `add_section` inserts after (end of file when absent).
 * - `content`: the text to insert, the new section (starting with its header), or the new file.
 */
export const SkillEditSchema = z.object({
  file: z.string().min(1),
  op: z.enum(SKILL_EDIT_OPS),
  target_section: optionalText,
  target_text: optionalText,
  content: optionalText,
  old_text: optionalText,
  after_section: optionalText,
});

export type SkillEdit = z.output<typeof SkillEditSchema>;

/** A patch as the analyst proposes it: why, what to change, and a changelog line for the skill. */
export const SkillPatchSchema = z.object({
  reasoning: z.string(),
  edits: z.array(SkillEditSchema),
  changelog: z.string(),
});

export type SkillPatch = z.output<typeof SkillPatchSchema>;
