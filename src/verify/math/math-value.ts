import { type Expression, parseExpression } from './expression.js';

/** What an answer is, structurally; comparison dispatches on `kind`. */
export type MathValue =
  | { kind: 'expression'; text: string; expression: Expression }
  | { kind: 'tuple'; text: string; items: MathValue[] }
  | { kind: 'set'; text: string; items: MathValue[] }
  /** Comma-separated without brackets: order is not part of the answer. */
  | { kind: 'list'; text: string; items: MathValue[] }
  | {
      kind: 'interval';
      text: string;
      leftClosed: boolean;
      rightClosed: boolean;
      low: MathValue;
      high: MathValue;
    }
  | { kind: 'union'; text: string; items: MathValue[] }
  | { kind: 'matrix'; text: string; rows: MathValue[][] }
  | { kind: 'equation'; text: string; left: MathValue; right: MathValue; variable: string | null }
  /** `x \ge 5` read as a statement, when relations are not compared as the sets they describe. */
  | { kind: 'relation'; text: string; left: MathValue; right: MathValue; op: '<' | '>' | '<=' | '>=' }
  /** `7:32`: ordered parts of a ratio. */
  | { kind: 'ratio'; text: string; items: MathValue[] }
  | { kind: 'choice'; text: string; letter: string }
  | { kind: 'text'; text: string };

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Top-level split of `s` on `separator`, ignoring separators inside brackets, braces and `\{…\}`. */
export function splitTopLevel(s: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '\\' && (s[i + 1] === '{' || s[i + 1] === '}')) {
      depth += s[i + 1] === '{' ? 1 : -1;
      i++;
    } else if (ch in OPENERS) depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (depth === 0 && s.startsWith(separator, i)) {
      parts.push(s.slice(start, i));
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim());
}

/** Whether the bracket at 0 closes at the last character (so the whole string is one bracketed item). */
function enclosedWhole(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '\\' && (s[i + 1] === '{' || s[i + 1] === '}')) {
      depth += s[i + 1] === '{' ? 1 : -1;
      i++;
      if (depth === 0 && i < s.length - 1) return false;
      continue;
    }
    if (ch in OPENERS) depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0 && i < s.length - 1) return false;
    }
  }
  return depth === 0;
}

const RELATIONS: ReadonlyArray<readonly [RegExp, '<' | '>' | '<=' | '>=']> = [
  [/\\le(?![a-zA-Z])|<=/, '<='],
  [/\\ge(?![a-zA-Z])|>=/, '>='],
  [/\\lt(?![a-zA-Z])|</, '<'],
  [/\\gt(?![a-zA-Z])|>/, '>'],
];

export interface ParseOptions {
  /**
   * `set` (default): an inequality is the interval it describes (`x \ge 5` is `[5, \infty)`);
   * `relation`: it is a statement, equal only to the same relation.
   */
  relations?: 'set' | 'relation';
}

/**
 * A name an answer may be labelled with: `x`, `a_1`, `AB`, `\theta`, `f(x)`, `g'(x)`, `m\angle A`, or a
 * tuple of them (`(p, q)`). Such a label on the left of `=` makes the right side the answer.
 */
const LABEL =
  /^(?:(?:m\s*)?\\angle\s*[A-Z]{1,3}|[A-Za-z]{1,3}(?:_\{?\w+\}?)?'{0,3}(?:\([a-z](?:,\s*[a-z])*\))?|\\[A-Za-z]+(?:_\{?\w+\}?)?)$/;

function isLabel(lhs: string): boolean {
  if (LABEL.test(lhs)) return true;
  const tuple = /^\((.*)\)$/.exec(lhs);
  return tuple !== null && splitTopLevel(tuple[1] as string, ',').every((part) => LABEL.test(part));
}

/**
 * The structure of a normalized answer: choice letter, matrix, set, interval or tuple, union,
 * equation (with a label on the left remembered), inequality (as an interval, or a relation),
 * ratio, a list (commas, semicolons, "and", "or"), `a \pm b` (as the set of both), or an
 * arithmetic expression; text when none fits.
 */
export function parseMathValue(text: string, options: ParseOptions = {}): MathValue {
  const parse = (part: string) => parseMathValue(part, options);
  const s = text
    .trim()
    .replace(/\s*,?\s+(?:and|or)\s+/g, ', ')
    // `(11,7)or(7,11)`: a connective between brackets needs no spaces around it.
    .replace(/(?<=[)\]])\s*(?:and|or)\s*(?=[([])/g, ', ')
    .replace(/\s*;\s*/g, ', ');
  // `{1, 2}` without backslashes is LaTeX grouping: the braces are not part of the answer.
  if (s.startsWith('{') && s.endsWith('}') && enclosedWhole(s)) return parse(s.slice(1, -1));
  // A matrix in brackets or parentheses (`(\begin{pmatrix}…\end{pmatrix})`) is the matrix.
  const bracketedMatrix = /^[([]\s*(\\begin\{([pbBvV]?matrix|array)\}[\s\S]*\\end\{\2\})\s*[)\]]$/.exec(s);
  if (bracketedMatrix) return parse(bracketedMatrix[1] as string);
  const approximation = approximated(s);
  if (approximation !== null) return parse(approximation);
  // `(B)`, `B)`, `B`, and `(B) 5`: an option letter with its option's text.
  const choice = /^\(?([A-J])\)$|^\(([A-J])\)?(?:\s+\S.*)?$|^([A-J])$/.exec(s);
  if (choice) return { kind: 'choice', text: s, letter: (choice[1] ?? choice[2] ?? choice[3]) as string };

  const matrix = /^\\begin\{([pbBvV]?matrix|array)\}(?:\{[^}]*\})?([\s\S]*)\\end\{\1\}$/.exec(s);
  if (matrix) {
    const rows = (matrix[2] as string)
      .split(/\\\\/)
      .map((row) => row.trim())
      .filter((row) => row !== '')
      .map((row) => row.split('&').map((cell) => parse(cell.trim())));
    return { kind: 'matrix', text: s, rows };
  }

  const union = splitTopLevel(s, '\\cup');
  if (union.length > 1) {
    const items = union.map(parse);
    // A union of finite sets is the set of their elements: `\{1,3\} \cup \{2,4\}` is `\{1,2,3,4\}`.
    if (items.every((item) => item.kind === 'set')) {
      return {
        kind: 'set',
        text: s,
        items: items.flatMap((item) => (item.kind === 'set' ? item.items : [])),
      };
    }
    return { kind: 'union', text: s, items };
  }

  const equalities = splitTopLevel(s, '=');
  if (
    equalities.length > 2 &&
    splitTopLevel(s, ',').length === 1 &&
    equalities.every((part) => part !== '') &&
    !equalities.slice(0, -1).some((part) => /[<>]$/.test(part))
  ) {
    // A chain `x = 5 + 5 + 1 = 11` states its result last: it is the equation of its last label
    // (or of its first part, when nothing in it is a label) and that result.
    const labels = equalities.slice(0, -1).filter(isLabel);
    const first = equalities[0] as string;
    // Without a label, a first part with names in it is a left-over of prose (`so x`), not a
    // condition the chain states: the chain's result is what it says.
    if (labels.length === 0 && /[A-Za-z]/.test(first.replace(/\\[A-Za-z]+/g, ''))) {
      return parse(equalities.at(-1) as string);
    }
    return parse(`${labels.at(-1) ?? first} = ${equalities.at(-1)}`);
  }
  if (equalities.length === 2 && !/[<>]$/.test(equalities[0] as string)) {
    const [lhs, rhs] = equalities as [string, string];
    const variable = isLabel(lhs) ? lhs : null;
    // `x = 1, y = 2` and `x = 1 or x = 2` are lists of assignments, not one equation; but a
    // labelled tuple `(p, q) = (3, 2)` is one.
    const listOfAssignments = variable !== null && splitTopLevel(rhs, ',').length > 1;
    if (!listOfAssignments) {
      return { kind: 'equation', text: s, left: parse(lhs), right: parse(rhs), variable };
    }
  }

  if (s.startsWith('\\{') && s.endsWith('\\}') && enclosedWhole(s)) {
    const inner = s.slice(2, -2).trim();
    const items = inner === '' ? [] : splitTopLevel(inner, ',').flatMap(expandPlusMinus).map(parse);
    return { kind: 'set', text: s, items };
  }

  if (/^[([]/.test(s) && /[)\]]$/.test(s) && enclosedWhole(s)) {
    const items = splitTopLevel(s.slice(1, -1), ',');
    const leftClosed = s.startsWith('[');
    const rightClosed = s.endsWith(']');
    if (items.length === 2 && (leftClosed || rightClosed)) {
      return {
        kind: 'interval',
        text: s,
        leftClosed,
        rightClosed,
        low: parse(items[0] as string),
        high: parse(items[1] as string),
      };
    }
    if (items.length >= 2) return { kind: 'tuple', text: s, items: items.map(parse) };
  }

  const parts = splitTopLevel(s, ',');
  if (parts.length > 1 && parts.every((p) => p !== '')) {
    // `x = 1, x = 2` and `AB = 4, CD = 5`: the values are the answer.
    const values = parts.map(parse);
    const labels = values.map((v) => (v.kind === 'equation' ? v.variable : null));
    const cycle = labels.slice(1).indexOf(labels[0] ?? null) + 1;
    if (
      cycle > 1 &&
      labels.every((label, i) => label !== null && label === labels[i % cycle]) &&
      labels.length % cycle === 0
    ) {
      // `p = 5, q = 2; p = 7, q = 2`: the labels repeat, so each round of them is one tuple.
      const items: MathValue[] = [];
      for (let i = 0; i < values.length; i += cycle) {
        const round = values.slice(i, i + cycle).map((v) => (v.kind === 'equation' ? v.right : v));
        items.push({ kind: 'tuple', text: round.map((v) => v.text).join(', '), items: round });
      }
      return { kind: 'list', text: s, items };
    }
    const items = values.map((value) =>
      value.kind === 'equation' && value.variable !== null ? value.right : value,
    );
    return { kind: 'list', text: s, items };
  }

  const inequality = parseInequality(s, options);
  if (inequality) return inequality;

  const ratio = splitTopLevel(s, ':');
  if (ratio.length > 1 && ratio.every((p) => /^[^A-Za-z]*$/.test(p) && p !== '')) {
    return { kind: 'ratio', text: s, items: ratio.map(parse) };
  }

  const pm = splitTopLevel(s, '\\pm');
  if (pm.length === 2 && pm[1] !== '') {
    // `\pm 1` alone is the set {1, -1}.
    const [base, offset] = pm as [string, string];
    const items =
      base === ''
        ? [parse(offset), parse(`-{${offset}}`)]
        : [parse(`${base}+${offset}`), parse(`${base}-${offset}`)];
    return { kind: 'set', text: s, items };
  }

  // `\frac{1 \pm \sqrt5}{2}`: a `\pm` inside is both values too.
  const both = expandPlusMinus(s);
  if (both.length === 2) return { kind: 'set', text: s, items: both.map(parse) };

  // A word of three or more letters outside any command is prose, not a product of variables.
  if (/(?<![\\A-Za-z])[A-Za-z]{3,}/.test(s)) return { kind: 'text', text: s };
  const expression = parseExpression(s);
  if (expression) return { kind: 'expression', text: s, expression };
  return { kind: 'text', text: s };
}

/**
 * An answer with `\pm` or `\mp` in it as its two values: every `\pm` read as `+` and every `\mp`
 * as `-`, then the other way round (the signs of one formula go together, as in
 * `\frac{-b \pm \sqrt{d}}{2a}`). Without either, the answer itself.
 */
function expandPlusMinus(s: string): string[] {
  if (!/\\(?:pm|mp)(?![A-Za-z])/.test(s)) return [s];
  const signs = (pm: string, mp: string) =>
    s.replace(/\\(pm|mp)(?![A-Za-z])/g, (_, which: string) => (which === 'pm' ? pm : mp));
  return [signs('+', '-'), signs('-', '+')];
}

/**
 * What an answer with `\approx` states exactly: the part before the first `\approx` (`x = 1/3
 * \approx 0.33` is `x = 1/3`), or, when that part is only a label (`x \approx 11`), the label
 * with the last approximation. Null when there is no `\approx`.
 */
function approximated(s: string): string | null {
  const parts = splitTopLevel(s, '\\approx');
  if (parts.length < 2 || parts.some((part) => part === '')) return null;
  const exact = parts[0] as string;
  return isLabel(exact) ? `${exact} = ${parts.at(-1)}` : exact;
}

/** `x > 3`, `x \le 5`, `1 < x \le 2` as intervals (or relations); null for anything else. */
function parseInequality(s: string, options: ParseOptions): MathValue | null {
  const pieces: string[] = [];
  const ops: Array<'<' | '>' | '<=' | '>='> = [];
  let rest = s;
  for (;;) {
    let best: { index: number; length: number; op: '<' | '>' | '<=' | '>=' } | null = null;
    for (const [pattern, op] of RELATIONS) {
      const m = pattern.exec(rest);
      if (m && (best === null || m.index < best.index)) best = { index: m.index, length: m[0].length, op };
    }
    if (best === null) break;
    pieces.push(rest.slice(0, best.index).trim());
    ops.push(best.op);
    rest = rest.slice(best.index + best.length);
  }
  pieces.push(rest.trim());
  if (ops.length === 0 || pieces.some((p) => p === '')) return null;
  if (options.relations === 'relation') {
    if (ops.length !== 1) return { kind: 'text', text: s };
    const [left, right] = pieces as [string, string];
    return {
      kind: 'relation',
      text: s,
      left: parseMathValue(left),
      right: parseMathValue(right),
      op: ops[0] as '<',
    };
  }
  const isVariable = (p: string) => /^[A-Za-z]$/.test(p) || /^[A-Za-z]\([a-z]\)$/.test(p);
  // `-x > -1` is `x < 1`.
  const negated = /^-\s*([A-Za-z])$/;
  if (ops.length === 1 && (negated.test(pieces[0] as string) || negated.test(pieces[1] as string))) {
    const flip = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' } as const;
    const negate = (p: string) => negated.exec(p)?.[1] ?? `-(${p})`;
    const op = ops[0] as '<';
    return parseInequality(
      `${negate(pieces[0] as string)} ${flip[op]} ${negate(pieces[1] as string)}`,
      options,
    );
  }
  const infinity = (sign: string): MathValue => parseMathValue(`${sign}\\infty`);
  const bound = (
    low: string | null,
    lowClosed: boolean,
    high: string | null,
    highClosed: boolean,
  ): MathValue => ({
    kind: 'interval',
    text: s,
    leftClosed: low !== null && lowClosed,
    rightClosed: high !== null && highClosed,
    low: low === null ? infinity('-') : parseMathValue(low),
    high: high === null ? infinity('') : parseMathValue(high),
  });
  if (ops.length === 1) {
    const [a, b] = pieces as [string, string];
    const op = ops[0] as string;
    if (isVariable(a))
      return op.startsWith('<') ? bound(null, false, b, op === '<=') : bound(b, op === '>=', null, false);
    if (isVariable(b))
      return op.startsWith('<') ? bound(a, op === '<=', null, false) : bound(null, false, a, op === '>=');
    return null;
  }
  if (ops.length === 2 && isVariable(pieces[1] as string)) {
    const [o1, o2] = ops as ['<' | '<=' | '>' | '>=', '<' | '<=' | '>' | '>='];
    if (o1.startsWith('<') && o2.startsWith('<'))
      return bound(pieces[0] as string, o1 === '<=', pieces[2] as string, o2 === '<=');
    if (o1.startsWith('>') && o2.startsWith('>'))
      return bound(pieces[2] as string, o2 === '>=', pieces[0] as string, o1 === '>=');
  }
  return null;
}
