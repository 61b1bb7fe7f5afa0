import { issuesOf, issuesText } from '../core/index.js';
import { type SkillPatch, SkillPatchSchema } from './skill-patch.js';

/** A patch read from model output, or why it was dropped whole. */
export type ParsedSkillPatch = { ok: true; patch: SkillPatch } | { ok: false; reason: string };

/**
 * A patch from its JSON text. Malformed JSON or a patch that fails the schema is dropped whole,
 * with the reason — never applied half-way.
 */
export function parseSkillPatch(text: string): ParsedSkillPatch {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `malformed JSON: ${(error as Error).message}` };
  }
  const parsed = SkillPatchSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, reason: `not a patch: ${issuesText(issuesOf(parsed.error, 'patch'))}` };
  return { ok: true, patch: parsed.data };
}
