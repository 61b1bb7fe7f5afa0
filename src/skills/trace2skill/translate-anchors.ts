import { type ApplySkillPatchOptions, applySkillPatch } from '../apply-skill-patch.js';
import { findSection, markdownHeaders } from '../markdown-sections.js';
import { packagePath } from '../package-path.js';
import type { SkillFiles } from '../skill-files.js';
import type { SkillEdit } from '../skill-patch.js';
import type { SupportedEdit, SupportedPatch } from './supported-patch.js';

/** How an anchor was found: as written, after collapsing whitespace, or ignoring case too. */
export type AnchorMatch = 'exact' | 'whitespace' | 'case';

/** An edit dropped at translation: its anchor is not in the file, or not once. */
export interface UntranslatedEdit {
  readonly index: number;
  readonly edit: SkillEdit;
  readonly field: AnchorField;
  readonly cause: 'anchor_not_found' | 'ambiguous_anchor';
  readonly reason: string;
}

type AnchorField = 'target_section' | 'after_section' | 'target_text' | 'old_text';

export interface TranslatedPatch {
  /** The patch with every kept edit's anchors equal to the file's text. */
  readonly patch: SupportedPatch;
  readonly dropped: UntranslatedEdit[];
  /** Anchors rewritten, by how they were found (`exact` anchors are left as written). */
  readonly matches: Record<AnchorMatch, number>;
}

/**
 * Anchor translation: each edit's anchors (`target_section`, `after_section`, `target_text`,
 * `old_text`) rewritten to the file's exact text — found as written, else with whitespace runs
 * collapsed, else ignoring case too, and only where that finds exactly one place. An edit with an
 * anchor found nowhere, or in more than one place, is dropped and reported. Edits are translated
 * in order against the files as the earlier edits leave them, so an edit may anchor on text an
 * earlier one added.
 */
export function translateAnchors(
  files: SkillFiles,
  patch: SupportedPatch,
  options: ApplySkillPatchOptions = {},
): TranslatedPatch {
  let state: SkillFiles = files;
  const kept: SupportedEdit[] = [];
  const dropped: UntranslatedEdit[] = [];
  const matches: Record<AnchorMatch, number> = { exact: 0, whitespace: 0, case: 0 };
  patch.edits.forEach((supported, index) => {
    const path = packagePath(supported.edit.file);
    const text = path === undefined ? undefined : state.get(path);
    const translated =
      text === undefined ? { edit: supported.edit, found: [] } : translateEdit(text, supported.edit);
    if ('field' in translated) {
      dropped.push({ index, edit: supported.edit, ...translated });
      return;
    }
    for (const how of translated.found) matches[how]++;
    kept.push({ ...supported, edit: translated.edit });
    state = applySkillPatch(state, { reasoning: '', edits: [translated.edit], changelog: '' }, options).files;
  });
  return { patch: { ...patch, edits: kept }, dropped, matches };
}

type Translated =
  | { edit: SkillEdit; found: AnchorMatch[] }
  | { field: AnchorField; cause: UntranslatedEdit['cause']; reason: string };

function translateEdit(text: string, edit: SkillEdit): Translated {
  const lines = text.split('\n');
  const out: SkillEdit = { ...edit };
  const found: AnchorMatch[] = [];
  for (const field of ['target_section', 'after_section'] as const) {
    const anchor = edit[field];
    if (anchor === undefined || edit.op === 'create' || edit.op === 'delete_file') continue;
    const headers = markdownHeaders(lines).map((h) => h.line);
    const match = matchHeader(headers, anchor);
    if ('cause' in match)
      return { field, cause: match.cause, reason: `${field} "${clip(anchor)}" ${why(match.cause)}` };
    out[field] = match.text;
    found.push(match.how);
  }
  const section = out.target_section === undefined ? undefined : findSection(lines, out.target_section);
  const scope = section?.found === true ? lines.slice(section.start, section.end).join('\n') : text;
  for (const field of ['target_text', 'old_text'] as const) {
    const anchor = edit[field];
    if (anchor === undefined || anchor === '') continue;
    if (field === 'target_text' && edit.op !== 'insert_after' && edit.op !== 'insert_before') continue;
    if (field === 'old_text' && edit.op !== 'replace_in_section') continue;
    const match = matchText(scope, anchor);
    if ('cause' in match)
      return { field, cause: match.cause, reason: `${field} "${clip(anchor)}" ${why(match.cause)}` };
    out[field] = match.text;
    found.push(match.how);
  }
  return { edit: out, found };
}

type Match = { text: string; how: AnchorMatch } | { cause: UntranslatedEdit['cause'] };

/** A header anchor among the file's header lines; the `#` marks may be left out of the anchor. */
function matchHeader(headers: readonly string[], anchor: string): Match {
  const title = (line: string) => collapse(line).replace(/^#+\s*/, '');
  const tries: [AnchorMatch, (h: string) => boolean][] = [
    ['exact', (h) => h === anchor.trim()],
    ['whitespace', (h) => collapse(h) === collapse(anchor) || title(h) === title(anchor)],
    ['case', (h) => title(h).toLowerCase() === title(anchor).toLowerCase()],
  ];
  for (const [how, test] of tries) {
    const hits = headers.filter(test);
    if (hits.length === 1) return { text: hits[0] as string, how };
    if (hits.length > 1) return { cause: 'ambiguous_anchor' };
  }
  return { cause: 'anchor_not_found' };
}

/** A text anchor in `scope`: the exact substring of the file it stands for, if it occurs once. */
function matchText(scope: string, anchor: string): Match {
  const exact = occurrences(scope, anchor);
  if (exact.length === 1) return { text: anchor, how: 'exact' };
  if (exact.length > 1) return { cause: 'ambiguous_anchor' };
  for (const how of ['whitespace', 'case'] as const) {
    const fold = how === 'case' ? (s: string) => s.toLowerCase() : (s: string) => s;
    const { text: haystack, offsets } = normalized(scope, fold);
    const needle = normalized(anchor, fold).text.trim();
    if (needle === '') return { cause: 'anchor_not_found' };
    const hits = occurrences(haystack, needle);
    if (hits.length > 1) return { cause: 'ambiguous_anchor' };
    const [at] = hits;
    if (at !== undefined) {
      const start = offsets[at] as number;
      const end = (offsets[at + needle.length - 1] as number) + 1;
      return { text: scope.slice(start, end), how };
    }
  }
  return { cause: 'anchor_not_found' };
}

/**
 * `text` with each whitespace run as one space and each character folded (a fold that changes a
 * character's length leaves it as it is), and for each character of the result its offset in `text`.
 */
function normalized(text: string, fold: (s: string) => string): { text: string; offsets: number[] } {
  let out = '';
  const offsets: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (/\s/.test(char)) {
      if (!inSpace) {
        out += ' ';
        offsets.push(i);
      }
      inSpace = true;
      continue;
    }
    inSpace = false;
    const folded = fold(char);
    out += folded.length === 1 ? folded : char;
    offsets.push(i);
  }
  return { text: out, offsets };
}

function occurrences(haystack: string, needle: string): number[] {
  const hits: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) hits.push(at);
  return hits;
}

function collapse(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function why(cause: UntranslatedEdit['cause']): string {
  return cause === 'anchor_not_found' ? 'not found in the file' : 'found more than once';
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
