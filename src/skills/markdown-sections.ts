import { fencedLines } from './markdown-fences.js';

/** An ATX header line (`## Title`) of a markdown text, outside fenced code. */
export interface MarkdownHeader {
  /** 0-based index of the header's line. */
  readonly index: number;
  readonly level: number;
  /** The line without surrounding whitespace: what an edit's `target_section` must equal. */
  readonly line: string;
}

const HEADER = /^ {0,3}(#{1,6})(?:[ \t].*)?$/;

/** The headers of a text split into lines; `#` lines inside ``` or ~~~ fences are code, not headers. */
export function markdownHeaders(lines: readonly string[]): MarkdownHeader[] {
  const fenced = fencedLines(lines);
  const headers: MarkdownHeader[] = [];
  lines.forEach((line, index) => {
    const match = fenced[index] ? null : HEADER.exec(line.trimEnd());
    if (match?.[1] !== undefined) headers.push({ index, level: match[1].length, line: line.trim() });
  });
  return headers;
}

/** Whether a text's first non-blank line is a header (a new section must start with one). */
export function startsWithHeader(text: string): boolean {
  const first = text.split('\n').find((line) => line.trim() !== '');
  return first !== undefined && HEADER.test(first.trimEnd());
}

/** A section's lines `[start, end)`: its header up to the next header of the same or a higher level. */
export type SectionLookup =
  | { readonly found: true; readonly start: number; readonly end: number }
  | { readonly found: false; readonly reason: 'anchor_not_found' | 'ambiguous_anchor' };

/** The section whose header line is exactly `header` (surrounding whitespace aside). */
export function findSection(lines: readonly string[], header: string): SectionLookup {
  const headers = markdownHeaders(lines);
  const matches = headers.filter((h) => h.line === header.trim());
  const [match] = matches;
  if (match === undefined) return { found: false, reason: 'anchor_not_found' };
  if (matches.length > 1) return { found: false, reason: 'ambiguous_anchor' };
  const next = headers.find((h) => h.index > match.index && h.level <= match.level);
  return { found: true, start: match.index, end: next?.index ?? lines.length };
}
