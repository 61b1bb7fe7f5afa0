import type { ToolKind } from './tool-kind.js';

/** Where something sits in the answer: UTF-16 offsets [start, end) and the 1-based line and column of start. */
export interface TextSpan {
  start: number;
  end: number;
  line: number;
  column: number;
}

/** One tool call the answer plans, as written. */
export interface PlannedCall extends TextSpan {
  /** 0-based order in the answer. */
  index: number;
  tool: ToolKind;
  /** What the call asks for: the search query, the generation prompt, the edit instruction, the code, the image id. */
  argument: string;
  /** Attributes written on a tag placeholder (`source="2"`), lower-cased names. */
  attributes: Record<string, string>;
  /** `tag` `<t>…</t>`, `void_tag` `<t id="2"/>`, `bracket` `[t: …]`. */
  form: 'tag' | 'void_tag' | 'bracket';
  raw: string;
}

export type ParseFindingKind =
  /** An opening tag or bracket never closed: left as text, not a call. */
  | 'unclosed'
  /** A closing tag with no opening tag. */
  | 'stray_close'
  /** `<image_search>…</image_generation>`: kept as a call of the opening tool. */
  | 'mismatched_close'
  /** A placeholder inside another's argument: part of that argument, not a call of its own. */
  | 'nested'
  /** A call with nothing to search, generate, edit, render or reference. */
  | 'empty_argument'
  /** Inside a code block, an inline code span or a blockquote: quoted text, not a call. */
  | 'quoted'
  /** Written with a backslash before it (`\<image_search>`): literal text, not a call. */
  | 'escaped'
  /** An image reference that names none of the given images. */
  | 'unknown_image';

/** Something about the placeholders worth knowing, with where it is. */
export interface ParseFinding extends TextSpan {
  kind: ParseFindingKind;
  /** The placeholder text as written (at most 80 characters). */
  text: string;
  message: string;
}

export type PlanSegment =
  | { kind: 'text'; text: string; start: number; end: number }
  | { kind: 'call'; call: number };

/** An interleaved answer read as text segments and planned calls, in order. */
export interface ToolPlan {
  segments: PlanSegment[];
  calls: PlannedCall[];
  findings: ParseFinding[];
}
