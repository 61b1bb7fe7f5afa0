import { matchingBrace } from './extract-math-answer.js';

/** Raised when LaTeX cannot be read as an arithmetic expression; the caller falls back to text. */
export class NotAnExpression extends Error {}

const FUNCTIONS: Record<string, string> = {
  sin: 'sin',
  cos: 'cos',
  tan: 'tan',
  sec: 'sec',
  csc: 'csc',
  cot: 'cot',
  arcsin: 'asin',
  arccos: 'acos',
  arctan: 'atan',
  sinh: 'sinh',
  cosh: 'cosh',
  tanh: 'tanh',
  ln: 'log',
  log: 'log10',
  exp: 'exp',
};

const INVERSES: Record<string, string> = { sin: 'asin', cos: 'acos', tan: 'atan' };

const GREEK = new Set(
  'alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Sigma Phi Psi Omega'.split(
    ' ',
  ),
);

/**
 * LaTeX math (already normalized) rewritten in mathjs syntax: `\frac{a}{b}` -> `((a)/(b))`,
 * `\sqrt[n]{x}` -> `nthRoot((x),(n))`, `x^{2}` -> `x^(2)`, `\sin x` -> `sin(x)`, `|x|` -> `abs(x)`,
 * letters as single-letter variables (`xy` is `x*y`), subscripts folded into names.
 * Throws {@link NotAnExpression} for anything else.
 */
export function latexToExpression(latex: string): string {
  const bars = latex.replace(/\\[lr]vert|\\vert|\\mid/g, '|');
  return new Converter(replaceAbsoluteBars(bars)).convert();
}

/** `|x|` pairs (not nested) as `\abs{x}`, which the converter reads as a one-argument function. */
function replaceAbsoluteBars(s: string): string {
  if (!s.includes('|')) return s;
  const out = s.replace(/\|([^|]+)\|/g, '\\abs{$1}');
  if (out.includes('|')) throw new NotAnExpression('unbalanced |');
  return out;
}

class Converter {
  private pos = 0;
  private out = '';
  constructor(private readonly src: string) {}

  convert(): string {
    while (this.pos < this.src.length) this.step();
    return this.out;
  }

  private step(): void {
    const s = this.src;
    const ch = s[this.pos] as string;
    if (ch === '\\') {
      this.command();
      return;
    }
    if (ch === '{') {
      this.out += `(${this.group()})`;
      return;
    }
    if (ch === '}') throw new NotAnExpression('unbalanced }');
    if (ch === '^') {
      this.pos++;
      this.out += `^(${this.argument()})`;
      return;
    }
    if (ch === '_') {
      this.pos++;
      const sub = this.argument().replace(/[()\s]/g, '');
      if (!/^\w+$/.test(sub) || !/[A-Za-z0-9]$/.test(this.out.trimEnd())) {
        throw new NotAnExpression('subscript on a non-name');
      }
      this.out = `${this.out.trimEnd()}_${sub}`;
      this.separateFromNext();
      return;
    }
    const number = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/.exec(s.slice(this.pos));
    if (number) {
      const text = number[0].startsWith('.') ? `0${number[0]}` : number[0];
      this.out += ` ${text.replace(/\.$/, '')} `;
      this.pos += number[0].length;
      return;
    }
    if (/[A-Za-z]/.test(ch)) {
      // Each letter is its own variable: `xy` means x times y.
      this.pos++;
      this.out += ` ${ch === 'e' ? 'e' : ch}`;
      this.separateFromNext();
      return;
    }
    if ('+-*/()!,. '.includes(ch) || ch === '[' || ch === ']') {
      if (ch === '[' || ch === ']') throw new NotAnExpression('brackets');
      this.out += ch === '.' ? ' ' : ch;
      this.pos++;
      return;
    }
    throw new NotAnExpression(`unexpected "${ch}"`);
  }

  /** A letter followed by `(` is a product, never a call. */
  private separateFromNext(): void {
    const rest = this.src.slice(this.pos).trimStart();
    if (rest.startsWith('(') || rest.startsWith('{') || rest.startsWith('\\')) this.out += '*';
    else this.out += ' ';
  }

  private command(): void {
    const m = /^\\([A-Za-z]+)/.exec(this.src.slice(this.pos));
    if (!m) {
      const escaped = this.src[this.pos + 1];
      if (escaped === '{' || escaped === '}') throw new NotAnExpression('set braces');
      throw new NotAnExpression(`unknown escape \\${escaped ?? ''}`);
    }
    const name = m[1] as string;
    this.pos += m[0].length;
    switch (name) {
      case 'frac': {
        const num = this.argument();
        const den = this.argument();
        this.out += `((${num})/(${den}))`;
        return;
      }
      case 'sqrt': {
        this.skipSpaces();
        if (this.src[this.pos] === '[') {
          const close = this.src.indexOf(']', this.pos);
          if (close < 0) throw new NotAnExpression('unclosed root index');
          const index = new Converter(this.src.slice(this.pos + 1, close)).convert();
          this.pos = close + 1;
          this.out += `nthRoot((${this.argument()}),(${index}))`;
          return;
        }
        this.out += `sqrt(${this.argument()})`;
        return;
      }
      case 'abs':
        this.out += `abs(${this.argument()})`;
        return;
      case 'binom':
      case 'dbinom':
      case 'tbinom': {
        const n = this.argument();
        const k = this.argument();
        this.out += `combinations((${n}),(${k}))`;
        return;
      }
      case 'cdot':
      case 'times':
      case 'ast':
        this.out += '*';
        return;
      case 'div':
        this.out += '/';
        return;
      case 'pi':
        this.out += ' pi';
        this.separateFromNext();
        return;
      case 'infty':
        this.out += ' Infinity ';
        return;
      case 'mathbb':
      case 'mathcal':
        throw new NotAnExpression(`\\${name}`);
    }
    if (GREEK.has(name)) {
      this.out += ` g_${name}`;
      this.separateFromNext();
      return;
    }
    const fn = FUNCTIONS[name];
    if (fn === undefined) throw new NotAnExpression(`\\${name}`);
    this.functionCall(fn);
  }

  /** `\sin x`, `\sin(x)`, `\sin^2 x`, `\log_2 8`. */
  private functionCall(fn: string): void {
    this.skipSpaces();
    let base: string | null = null;
    if (this.src[this.pos] === '_' && fn === 'log10') {
      this.pos++;
      base = this.argument();
    }
    let power: string | null = null;
    this.skipSpaces();
    if (this.src[this.pos] === '^') {
      this.pos++;
      power = this.argument();
    }
    this.skipSpaces();
    let arg: string;
    if (this.src[this.pos] === '(') {
      const close = this.closingParen(this.pos);
      arg = new Converter(this.src.slice(this.pos + 1, close)).convert();
      this.pos = close + 1;
    } else if (this.src[this.pos] === '{') {
      arg = this.group();
    } else if (/^\\(?:frac|sqrt)(?![A-Za-z])/.test(this.src.slice(this.pos))) {
      // `\cos\frac{2\pi}{9}`: the fraction (or root) with its arguments is the argument.
      arg = this.argument();
    } else {
      // Unparenthesized argument: the following number-and-letters term, as in `\sin 2x`.
      const term = /^[0-9.]*(?:[A-Za-z]|\\[A-Za-z]+)?(?:\^\{[^{}]*\}|\^\w)?/.exec(this.src.slice(this.pos));
      if (!term || term[0] === '') throw new NotAnExpression(`${fn} without an argument`);
      arg = new Converter(term[0]).convert();
      this.pos += term[0].length;
    }
    // `\tan^{-1} x` is the inverse function, not a reciprocal.
    const inverse = power !== null && /^\(?\s*-\s*1\s*\)?$/.test(power.trim()) ? INVERSES[fn] : undefined;
    if (inverse !== undefined) {
      this.out += `${inverse}(${arg})`;
      return;
    }
    const call = base === null ? `${fn}(${arg})` : `log((${arg}),(${base}))`;
    this.out += power === null ? call : `(${call})^(${power})`;
  }

  private closingParen(open: number): number {
    let depth = 0;
    for (let i = open; i < this.src.length; i++) {
      if (this.src[i] === '(') depth++;
      else if (this.src[i] === ')' && --depth === 0) return i;
    }
    throw new NotAnExpression('unclosed (');
  }

  private skipSpaces(): void {
    while (this.src[this.pos] === ' ') this.pos++;
  }

  /** A braced group, converted. */
  private group(): string {
    const close = matchingBrace(this.src, this.pos);
    if (close < 0) throw new NotAnExpression('unclosed {');
    const inner = new Converter(this.src.slice(this.pos + 1, close)).convert();
    this.pos = close + 1;
    return inner;
  }

  /** A command argument: a braced group, a command with its arguments, or one character. */
  private argument(): string {
    this.skipSpaces();
    const ch = this.src[this.pos];
    if (ch === undefined) throw new NotAnExpression('missing argument');
    if (ch === '{') return this.group();
    if (ch === '\\') {
      const sub = new Converter(this.src.slice(this.pos));
      const m = /^\\[A-Za-z]+/.exec(this.src.slice(this.pos));
      if (!m) throw new NotAnExpression('bad argument');
      sub.pos = 0;
      sub.command();
      this.pos += sub.pos;
      return sub.out;
    }
    this.pos++;
    if (/[0-9A-Za-z]/.test(ch)) return ch;
    throw new NotAnExpression(`bad argument "${ch}"`);
  }
}
