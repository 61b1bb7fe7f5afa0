import { findSection, markdownHeaders, startsWithHeader } from './markdown-sections.js';
import type { SkillEdit } from './skill-patch.js';

/** Why an edit left its file as it was. */
export type SkipCause =
  | 'protected'
  | 'bad_path'
  | 'file_not_found'
  | 'file_exists'
  | 'missing_field'
  | 'anchor_not_found'
  | 'ambiguous_anchor'
  | 'section_exists';

export type EditOutcome = { ok: true; text: string } | { ok: false; cause: SkipCause; reason: string };

type TextEdit = Exclude<SkillEdit['op'], 'create' | 'delete_file'>;

/**
 * One in-file edit on a text: the new text, or why the text stays as it is. Anchors are exact —
 * a header line for sections, a text that occurs exactly once in its scope for `insert_*` and
 * `replace_in_section` — so an edit lands where its author meant or not at all.
 */
export function applyTextEdit(text: string, edit: SkillEdit & { op: TextEdit }): EditOutcome {
  const lines = text.split('\n');
  const { content } = edit;
  if (content === undefined && edit.op !== 'delete_section') return missing('content');
  const block = (content ?? '').replace(/\n$/, '').split('\n');
  switch (edit.op) {
    case 'insert_after':
    case 'insert_before': {
      if (edit.target_text === undefined || edit.target_text === '') return missing('target_text');
      const scope = scopeOf(lines, edit.target_section);
      if (!scope.found) return skip(scope.reason, `target_section "${edit.target_section}"`);
      const scopeText = lines.slice(scope.start, scope.end).join('\n');
      const at = uniqueIndex(scopeText, edit.target_text);
      if (typeof at === 'string') return skip(at, `target_text "${clip(edit.target_text)}"`);
      const lineOf = (offset: number) => scope.start + countNewlines(scopeText.slice(0, offset));
      const index =
        edit.op === 'insert_before' ? lineOf(at) : lineOf(at + Math.max(edit.target_text.length - 1, 0)) + 1;
      return done(lines.toSpliced(index, 0, ...block));
    }
    case 'append_to_section': {
      const section = sectionOf(lines, edit.target_section, 'target_section');
      if (!section.ok) return section;
      return done(insertAfterContent(lines, section.start, section.end, block));
    }
    case 'replace_in_section': {
      if (edit.old_text === undefined || edit.old_text === '') return missing('old_text');
      const section = sectionOf(lines, edit.target_section, 'target_section');
      if (!section.ok) return section;
      const body = lines.slice(section.start, section.end).join('\n');
      const at = uniqueIndex(body, edit.old_text);
      if (typeof at === 'string')
        return skip(at, `old_text "${clip(edit.old_text)}" in "${edit.target_section}"`);
      const replaced = body.slice(0, at) + (content ?? '') + body.slice(at + edit.old_text.length);
      return done([...lines.slice(0, section.start), ...replaced.split('\n'), ...lines.slice(section.end)]);
    }
    case 'add_section': {
      if (!startsWithHeader(content ?? ''))
        return skip('missing_field', 'content of add_section must start with a header line');
      const header = block.find((line) => line.trim() !== '')?.trim() as string;
      if (markdownHeaders(lines).some((h) => h.line === header))
        return skip('section_exists', `section "${header}" exists`);
      if (edit.after_section === undefined)
        return done(insertAfterContent(lines, 0, lines.length, ['', ...block]));
      const section = sectionOf(lines, edit.after_section, 'after_section');
      if (!section.ok) return section;
      return done(insertAfterContent(lines, section.start, section.end, ['', ...block]));
    }
    case 'delete_section': {
      const section = sectionOf(lines, edit.target_section, 'target_section');
      if (!section.ok) return section;
      return done(lines.toSpliced(section.start, section.end - section.start));
    }
  }
}

/**
 * Inserts `block` after the last non-blank line of `[start, end)`, so trailing blank lines stay
 * between the section and the next header; a blank line is added when a header would follow directly.
 */
function insertAfterContent(lines: readonly string[], start: number, end: number, block: string[]): string[] {
  let at = end;
  while (at > start && (lines[at - 1] as string).trim() === '') at--;
  const next = lines[at];
  const padded = next !== undefined && next.trim() !== '' ? [...block, ''] : block;
  return lines.toSpliced(at, 0, ...padded);
}

function scopeOf(lines: readonly string[], header: string | undefined) {
  return header === undefined
    ? ({ found: true, start: 0, end: lines.length } as const)
    : findSection(lines, header);
}

function sectionOf(
  lines: readonly string[],
  header: string | undefined,
  field: 'target_section' | 'after_section',
): { ok: true; start: number; end: number } | { ok: false; cause: SkipCause; reason: string } {
  if (header === undefined) return missing(field);
  const section = findSection(lines, header);
  if (!section.found) return skip(section.reason, `${field} "${header}"`);
  return { ok: true, start: section.start, end: section.end };
}

/** Where `needle` occurs in `haystack`, if exactly once. */
function uniqueIndex(haystack: string, needle: string): number | 'anchor_not_found' | 'ambiguous_anchor' {
  const first = haystack.indexOf(needle);
  if (first < 0) return 'anchor_not_found';
  return haystack.indexOf(needle, first + 1) >= 0 ? 'ambiguous_anchor' : first;
}

function countNewlines(text: string): number {
  let count = 0;
  for (const char of text) if (char === '\n') count++;
  return count;
}

function done(lines: readonly string[]): EditOutcome {
  return { ok: true, text: lines.join('\n') };
}

function missing(field: string): { ok: false; cause: SkipCause; reason: string } {
  return { ok: false, cause: 'missing_field', reason: `the op needs "${field}"` };
}

function skip(cause: SkipCause, what: string): { ok: false; cause: SkipCause; reason: string } {
  const why =
    cause === 'anchor_not_found' ? 'not found' : cause === 'ambiguous_anchor' ? 'found more than once' : '';
  return { ok: false, cause, reason: why === '' ? what : `${what} ${why}` };
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
