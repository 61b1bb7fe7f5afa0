/**
 * Functions an answer written in plain text (ASCII, Python, sympy) calls, with the LaTeX each one
 * is: `log` is the natural logarithm there, as in Python's `math.log` and sympy.
 */
const PLAIN_FUNCTIONS: Record<string, string> = {
  sin: '\\sin',
  cos: '\\cos',
  tan: '\\tan',
  sec: '\\sec',
  csc: '\\csc',
  cot: '\\cot',
  asin: '\\arcsin',
  acos: '\\arccos',
  atan: '\\arctan',
  arcsin: '\\arcsin',
  arccos: '\\arccos',
  arctan: '\\arctan',
  sinh: '\\sinh',
  cosh: '\\cosh',
  tanh: '\\tanh',
  exp: '\\exp',
  ln: '\\ln',
  log: '\\ln',
};

/** Calls whose argument becomes a braced LaTeX argument. */
const BRACED: Record<string, string> = { sqrt: '\\sqrt', cbrt: '\\sqrt[3]', abs: '\\abs' };

/** The names of {@link PLAIN_FUNCTIONS} and {@link BRACED}, not inside a longer word or after a backslash. */
const NAME =
  '(?<![\\\\A-Za-z])(?:sqrt|cbrt|abs|a?(?:sin|cos|tan)h?|arc(?:sin|cos|tan)|sec|csc|cot|exp|ln|log)';

/** A plain-text call (`sqrt(`, `log(`) or `**`: the marks of an answer written outside LaTeX. */
export const PLAIN_MATH = new RegExp(`${NAME}\\s*\\(|\\*\\*`);

/** A plain-text function name right before its `(`, which prose checks should not read as a word. */
export const PLAIN_CALL = new RegExp(`${NAME}(?=\\s*\\()`, 'g');

/** Index of the parenthesis closing the one at `open`, or -1. */
export function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** For every `(` of the text, the index of the `)` that closes it (one pass, with a stack). */
function parenPairs(text: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') open.push(i);
    else if (text[i] === ')') {
      const at = open.pop();
      if (at !== undefined) pairs.set(at, i);
    }
  }
  return pairs;
}

/**
 * Plain-text math as the LaTeX it means: `sqrt(5)` is `\sqrt{5}`, `3**(1/3)` is `3^{(1/3)}`, `pi`
 * is `\pi`, `log(x)` is `\ln(x)`. Text without such marks is returned unchanged; an unbalanced
 * call is left as it is (it then reads as text, never as a number out of it). One pass: each
 * call's closing parenthesis is known from the start and rewritten when reached.
 */
export function plainTextToLatex(text: string): string {
  if (!PLAIN_MATH.test(text) && !/(?<![\\A-Za-z])pi(?![A-Za-z])/.test(text)) return text;
  const s = text.replace(/\*\*/g, '^').replace(/(?<![\\A-Za-z])pi(?![A-Za-z])/g, '\\pi ');
  const pairs = parenPairs(s);
  /** What each rewritten call's closing parenthesis becomes. */
  const closers = new Map<number, string>();
  let out = '';
  let i = 0;
  while (i < s.length) {
    const closer = closers.get(i);
    if (closer !== undefined) {
      out += closer;
      i++;
      continue;
    }
    const call =
      /[A-Za-z]/.test(s[i] as string) && !/[\\A-Za-z]/.test(s[i - 1] ?? '')
        ? /^([A-Za-z]+)\s*\(/.exec(s.slice(i, i + 40))
        : null;
    if (call !== null) {
      const name = call[1] as string;
      const open = i + call[0].length - 1;
      const close = pairs.get(open);
      const braced = BRACED[name];
      const latex = PLAIN_FUNCTIONS[name];
      if (close !== undefined && (braced !== undefined || latex !== undefined)) {
        out += braced !== undefined ? `${braced}{` : `${latex}(`;
        closers.set(close, braced !== undefined ? '}' : ')');
        i = open + 1;
        continue;
      }
    }
    if (s[i] === '^' && s[i + 1] === '(') {
      const close = pairs.get(i + 1);
      if (close !== undefined) {
        out += '^{(';
        closers.set(close, ')}');
        i += 2;
        continue;
      }
    }
    out += s[i];
    i++;
  }
  return out;
}

/** A run of plain-text math in prose: numbers, `pi`, calls, operators and the spaces between them. */
const PLAIN_RUN = new RegExp(
  `(?:(?:${NAME}|(?<![\\\\A-Za-z])pi)(?![A-Za-z])|\\d+(?:\\.\\d+)?|\\*\\*|[-+*/^() \\t])+`,
  'g',
);

/**
 * The last expression written in plain text in a prose (its math spans blanked out), when no
 * number follows it: `… so the side is 4*sqrt(3)/9 units` gives `4*sqrt(3)/9`, where the last
 * number would be a digit taken out of it. Null when the prose's last number is not part of one:
 * a lone number, a fraction `3/4` or a sum `2 + 3` in prose stay numbers.
 */
export function lastPlainExpression(prose: string): string | null {
  // Without a call, a product, a power or `pi` there is no plain-text expression to find.
  if (!/[*^(]|pi/.test(prose)) return null;
  let last: { text: string; end: number } | null = null;
  PLAIN_RUN.lastIndex = 0;
  for (let m = PLAIN_RUN.exec(prose); m !== null; m = PLAIN_RUN.exec(prose)) {
    const text = trimRun(m[0]);
    if (text !== null && /\d|pi/.test(text)) last = { text, end: m.index + m[0].length };
  }
  if (last === null || /\d/.test(prose.slice(last.end))) return null;
  const marked =
    PLAIN_MATH.test(last.text) || /[\d)i]\s*[*^]\s*[\d(a-z]/.test(last.text) || /pi/.test(last.text);
  return marked ? last.text : null;
}

/** A run without what cannot start or end an expression, and with its parentheses balanced; null when they are not. */
function trimRun(run: string): string | null {
  let text = run.replace(/^[\s*/^+)]+/, '').replace(/[\s*/^+\-(]+$/, '');
  const count = (ch: string) => text.split(ch).length - 1;
  while (count('(') > count(')') && text.startsWith('(')) text = text.slice(1).trim();
  while (count(')') > count('(') && text.endsWith(')')) text = text.slice(0, -1).trim();
  return text !== '' && count('(') === count(')') ? text : null;
}
