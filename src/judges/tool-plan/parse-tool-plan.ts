import { inRanges, quotedRanges } from './quoted-ranges.js';
import { type ToolKind, toolKindOf } from './tool-kind.js';
import type {
  ParseFinding,
  ParseFindingKind,
  PlannedCall,
  PlanSegment,
  TextSpan,
  ToolPlan,
} from './tool-plan.js';

export interface ParseToolPlanOptions {
  /**
   * The images given with the query (paths or URLs, in order). When set, an image reference must
   * name one of them: by 1-based number (`2`, `image 2`, `#2`), by the path itself or its file name.
   */
  images?: readonly string[];
}

interface Token {
  type: 'open' | 'close' | 'void' | 'bracket';
  tool: ToolKind;
  start: number;
  end: number;
  attributes: Record<string, string>;
}

/** `<tool attr="v">`, `</tool>`, `<tool attr="v"/>` and `[tool:`; the name is checked against the tool aliases. */
const TOKEN =
  /<\s*(\/)?\s*([A-Za-z][\w-]*)((?:\s+[A-Za-z_][\w-]*\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>/]+))*)\s*(\/)?\s*>|\[\s*([A-Za-z][\w -]*?)\s*[:：]/g;
const ATTRIBUTE = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/g;
/** Attributes that carry the argument of a tag written without a body. */
const ARGUMENT_ATTRIBUTES = [
  'query',
  'prompt',
  'instruction',
  'code',
  'id',
  'ref',
  'src',
  'image',
  'index',
  'description',
  'text',
  'content',
];

function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const tool = m[5] !== undefined ? toolKindOf(m[5], 'bracket') : toolKindOf(m[2] ?? '');
    if (!tool) continue;
    const attributes: Record<string, string> = {};
    for (const a of (m[3] ?? '').matchAll(ATTRIBUTE)) {
      attributes[(a[1] as string).toLowerCase()] = a[2] ?? a[3] ?? a[4] ?? '';
    }
    const type = m[5] !== undefined ? 'bracket' : m[1] ? 'close' : m[4] ? 'void' : 'open';
    tokens.push({ type, tool, start: m.index, end: m.index + m[0].length, attributes });
  }
  return tokens;
}

const argumentAttribute = (attributes: Record<string, string>) =>
  ARGUMENT_ATTRIBUTES.map((name) => attributes[name]).find((v) => v !== undefined && v.trim() !== '');

/** The `]` that closes a bracket placeholder opened before `from`, or -1 (a blank line ends the search). */
function closingBracket(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' && text[i + 1] === '\n') return -1;
    if (ch === '[') depth++;
    else if (ch === ']') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function imageResolves(argument: string, images: readonly string[]): boolean {
  const numbered = /^(?:image|img|picture|figure|fig\.?)?\s*[#_-]?\s*(\d+)$/i.exec(argument.trim());
  if (numbered) {
    const n = Number(numbered[1]);
    return n >= 1 && n <= images.length;
  }
  const name = argument.trim();
  return images.some((image) => image === name || image.split(/[\\/]/).at(-1) === name);
}

/**
 * Reads the tool calls an interleaved answer plans as placeholders (syntax in docs/tool-plan.md):
 * `<image_search>query</image_search>` and the other tools' tags, their aliases, `<image_reference
 * id="2"/>` and `[image_generation: prompt]`. Quoted text (code, blockquotes) and escaped
 * placeholders are text. Nothing malformed is dropped silently: every problem is a finding with
 * its position, and the answer is split into text segments and calls in order.
 */
export function parseToolPlan(text: string, options: ParseToolPlanOptions = {}): ToolPlan {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const span = (start: number, end: number): TextSpan => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= start) lo = mid;
      else hi = mid - 1;
    }
    return { start, end, line: lo + 1, column: start - (lineStarts[lo] as number) + 1 };
  };
  const findings: ParseFinding[] = [];
  const find = (kind: ParseFindingKind, start: number, end: number, message: string) =>
    findings.push({ kind, ...span(start, end), text: text.slice(start, Math.min(end, start + 80)), message });

  const quoted = quotedRanges(text);
  const live: Token[] = [];
  for (const token of tokensOf(text)) {
    if (token.type !== 'close' && inRanges(quoted, token.start)) {
      find(
        'quoted',
        token.start,
        token.end,
        `${token.tool} placeholder inside quoted text (code or blockquote): not a call`,
      );
    } else if (token.type !== 'close' && text[token.start - 1] === '\\') {
      find(
        'escaped',
        token.start - 1,
        token.end,
        `escaped ${token.tool} placeholder: literal text, not a call`,
      );
    } else if (!inRanges(quoted, token.start) && text[token.start - 1] !== '\\') {
      live.push(token);
    }
  }

  const calls: PlannedCall[] = [];
  const addCall = (
    tool: ToolKind,
    start: number,
    end: number,
    body: string,
    attributes: Record<string, string>,
    form: PlannedCall['form'],
  ) => {
    // A reference's id attribute names the image; its body, if any, is a caption.
    const fromAttribute = argumentAttribute(attributes)?.trim();
    const argument =
      (tool === 'image_reference' ? fromAttribute || body.trim() : body.trim() || fromAttribute) || '';
    if (argument === '') find('empty_argument', start, end, `${tool} call with an empty argument`);
    calls.push({
      index: calls.length,
      tool,
      argument,
      attributes,
      form,
      raw: text.slice(start, end),
      ...span(start, end),
    });
  };
  const nestedIn = (from: number, to: number, outer: ToolKind) => {
    for (let j = from; j < to; j++) {
      const t = live[j] as Token;
      if (t.type !== 'close')
        find(
          'nested',
          t.start,
          t.end,
          `${t.tool} placeholder inside a ${outer} argument: kept as part of that argument`,
        );
    }
  };

  let k = 0;
  while (k < live.length) {
    const token = live[k] as Token;
    if (token.type === 'close') {
      find('stray_close', token.start, token.end, `closing ${token.tool} tag with no opening tag`);
      k++;
    } else if (token.type === 'void') {
      addCall(token.tool, token.start, token.end, '', token.attributes, 'void_tag');
      k++;
    } else if (token.type === 'bracket') {
      const close = closingBracket(text, token.end);
      if (close < 0) {
        find('unclosed', token.start, token.end, `[${token.tool}: …] never closed with "]": left as text`);
        k++;
        continue;
      }
      let next = k + 1;
      while (next < live.length && (live[next] as Token).start < close) next++;
      nestedIn(k + 1, next, token.tool);
      addCall(token.tool, token.start, close + 1, text.slice(token.end, close), {}, 'bracket');
      k = next;
    } else {
      const following = live[k + 1];
      const closesHere = following?.type === 'close' && following.tool === token.tool;
      // `<image_reference id="2">` with no closing tag is a plausible way to write a void tag.
      if (!closesHere && argumentAttribute(token.attributes) !== undefined) {
        addCall(token.tool, token.start, token.end, '', token.attributes, 'void_tag');
        k++;
        continue;
      }
      let m = k + 1;
      while (m < live.length && (live[m] as Token).type !== 'close') m++;
      const first = live[m];
      if (first && first.tool !== token.tool) {
        // A close of another tool comes first: that tool is nested in this argument when a close of
        // ours follows before any opening of ours; otherwise, if the close pairs with an opening
        // inside, this opening was never closed; else the close is just the wrong name.
        let own = m + 1;
        while (own < live.length && (live[own] as Token).tool !== token.tool) own++;
        const pairsInside = live.slice(k + 1, m).some((t) => t.type === 'open' && t.tool === first.tool);
        if (live[own]?.type === 'close') m = own;
        else if (pairsInside) {
          find('unclosed', token.start, token.end, `<${token.tool}> never closed: left as text`);
          k++;
          continue;
        }
      }
      const close = live[m];
      if (!close) {
        find('unclosed', token.start, token.end, `<${token.tool}> never closed: left as text`);
        k++;
        continue;
      }
      nestedIn(k + 1, m, token.tool);
      if (close.tool !== token.tool) {
        find(
          'mismatched_close',
          close.start,
          close.end,
          `<${token.tool}> closed by a ${close.tool} tag: read as ${token.tool}`,
        );
      }
      addCall(
        token.tool,
        token.start,
        close.end,
        text.slice(token.end, close.start),
        token.attributes,
        'tag',
      );
      k = m + 1;
    }
  }

  if (options.images !== undefined) {
    for (const call of calls) {
      if (
        call.tool === 'image_reference' &&
        call.argument !== '' &&
        !imageResolves(call.argument, options.images)
      ) {
        find(
          'unknown_image',
          call.start,
          call.end,
          `image reference "${call.argument}" names none of the ${options.images.length} given image(s)`,
        );
      }
    }
  }

  const segments: PlanSegment[] = [];
  let at = 0;
  for (const call of calls) {
    if (call.start > at)
      segments.push({ kind: 'text', text: text.slice(at, call.start), start: at, end: call.start });
    segments.push({ kind: 'call', call: call.index });
    at = call.end;
  }
  if (at < text.length) segments.push({ kind: 'text', text: text.slice(at), start: at, end: text.length });
  findings.sort((a, b) => a.start - b.start);
  return { segments, calls, findings };
}
