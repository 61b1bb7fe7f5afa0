import { plainTextToLatex } from './plain-text-math.js';

/** An answer string with its presentation removed, and what was removed that still matters. */
export interface NormalizedAnswer {
  text: string;
  /** It ended in a percent sign: compare as the number and as the number / 100. */
  percent: boolean;
}

const UNICODE: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2212\u2012\u2013\u2014\uFE63\uFF0D]/g, '-'],
  [/[\u00D7\u2715\u2716]/g, '\\times '],
  [/[\u00B7\u22C5\u2219]/g, '\\cdot '],
  [/\u00F7/g, '/'],
  [/\u03C0/g, '\\pi '],
  [/\u221E/g, '\\infty '],
  [/\u221A/g, '\\sqrt'],
  [/\u2264/g, '\\le '],
  [/\u2265/g, '\\ge '],
  [/\u222A/g, '\\cup '],
  [/\u00B1/g, '\\pm '],
  [/[\u00A0\u2009\u202F\u3000]/g, ' '],
  [/\uFF05/g, '%'],
  [/\u00BD/g, '\\frac{1}{2}'],
  [/\u2153/g, '\\frac{1}{3}'],
  [/\u2154/g, '\\frac{2}{3}'],
  [/\u00BC/g, '\\frac{1}{4}'],
  [/\u00BE/g, '\\frac{3}{4}'],
  [/\u215B/g, '\\frac{1}{8}'],
  [/(?<=[\w)}])([\u00B9\u00B2\u00B3\u2070\u2074-\u2079]+)/g, '^{$1}'],
];

const SUPERSCRIPT_DIGITS: Record<string, string> = {
  '\u2070': '0',
  '\u00B9': '1',
  '\u00B2': '2',
  '\u00B3': '3',
  '\u2074': '4',
  '\u2075': '5',
  '\u2076': '6',
  '\u2077': '7',
  '\u2078': '8',
  '\u2079': '9',
};

/**
 * `0.\overline{3}` and `1.2\overline{34}` as the exact fractions they are: a repeating decimal
 * I.B(C) is (IBC − IB) / (10^|B| · (10^|C| − 1)).
 */
function repeatingDecimal(whole: string, before: string, repeating: string): string {
  const all = BigInt(`${whole || '0'}${before}${repeating}`);
  const head = BigInt(`${whole || '0'}${before}`);
  const denominator = 10n ** BigInt(before.length) * (10n ** BigInt(repeating.length) - 1n);
  return `\\frac{${all - head}}{${denominator}}`;
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/**
 * A trigonometric function of an angle in degrees: `\cos 40^\circ`, `\sin^2(30^{\circ})`, `\tan 45°`.
 * Groups: the function with its power, the bracket that opens the argument, the angle.
 */
const TRIG_DEGREES =
  /(\\(?:sin|cos|tan|sec|csc|cot)(?![A-Za-z])(?:\s*\^\s*(?:\{[^{}]*\}|\w))?\s*)([({]?)\s*(-?\d+(?:\.\d+)?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![A-Za-z]))/g;

/** Commands whose braced argument is the text itself. */
const TEXT_COMMANDS =
  /\\(?:text|textbf|textit|textrm|texttt|mbox|mathrm|mathbf|mathit|operatorname|hbox|textnormal)\s*\{([^{}]*)\}/g;

/** Trailing unit words that follow an answer and do not change it. */
const UNITS = [
  'square units',
  'square feet',
  'square inches',
  'square meters',
  'square centimeters',
  'sq units',
  'sq ft',
  'units',
  'unit',
  'cm',
  'mm',
  'km',
  'meters',
  'meter',
  'metres',
  'centimeters',
  'inches',
  'inch',
  'feet',
  'foot',
  'ft',
  'yards',
  'yd',
  'miles',
  'mi',
  'kg',
  'grams',
  'mg',
  'lb',
  'lbs',
  'pounds',
  'ounces',
  'oz',
  'liters',
  'litres',
  'ml',
  'seconds',
  'second',
  'sec',
  'minutes',
  'minute',
  'min',
  'hours',
  'hour',
  'hrs',
  'hr',
  'days',
  'day',
  'weeks',
  'months',
  'years',
  'year',
  'mph',
  'km/h',
  'm/s',
  'cents',
  'cent',
  'dollars',
  'dollar',
  'degrees',
  'degree',
  'radians',
  'percent',
];
const UNIT_SUFFIX = new RegExp(
  `(?<=[\\d}.)\\s])\\s*(?:${UNITS.map((u) => u.replace('/', '\\/')).join('|')})(?:\\s*\\^\\s*\\{?[23]\\}?|[23²³])?\\s*$`,
  'i',
);
/** One-letter units ("5 m", "3 s") only after a number and a space, where they cannot be a variable. */
const LETTER_UNIT_SUFFIX = /(?<=\d)\s+(?:m|s|h|g|l|in)(?:\^\{?[23]\}?|[23²³])?\s*$/i;

/**
 * Presentation stripped from a final answer: math delimiters, `\left`/`\right`, spacing commands,
 * `\text{}` wrappers, `\dfrac`, degree signs, currency, units, thousands separators, unicode
 * symbols and a trailing period. What is left is LaTeX that means the same value.
 */
export function normalizeMathAnswer(raw: string): NormalizedAnswer {
  let s = raw.trim();
  for (const [pattern, replacement] of UNICODE) s = s.replace(pattern, replacement);
  s = s
    .replace(
      /\^\{([\u00B9\u00B2\u00B3\u2070\u2074-\u2079]+)\}/g,
      (_, digits: string) => `^{${[...digits].map((d) => SUPERSCRIPT_DIGITS[d]).join('')}}`,
    )
    .replace(/(\d*)\.(\d*)\\overline\s*\{(\d+)\}/g, (_, whole: string, before: string, repeating: string) =>
      repeatingDecimal(whole, before, repeating),
    );
  // Answers copied out of JSON or Python source keep their escapes (`\\left(`, `\\le`): one
  // backslash before a command name, except in an environment where `\\` separates rows.
  if (!/(?<!\\)\\begin\{/.test(s)) s = s.replace(/(?<!\\)\\\\(?=[A-Za-z]{2,})/g, '\\');
  s = plainTextToLatex(s);
  s = s
    .replace(/^\$+|\$+$/g, '')
    .replace(/^\\\(|\\\)$/g, '')
    .replace(/^\\\[|\\\]$/g, '')
    .replace(/\\(?:displaystyle|textstyle|scriptstyle)/g, '')
    .replace(/\\[dtc]frac/g, '\\frac')
    .replace(/\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big|biggl|biggr)(?![a-zA-Z])\s*/g, '')
    // `\quadx_2` is `\quad` then `x_2`: there is no longer command that starts with it.
    .replace(/\\q?quad/g, ' ')
    // MATH groups digits with `,\!` and `\,`: one number, not a list.
    .replace(/(\d),\s*\\!\s*(?=\d{3}(?!\d))/g, '$1,')
    .replace(/(?<!\\)\\!/g, '')
    .replace(/(?<!\\)\\[,;:> ]/g, ' ')
    .replace(/~/g, ' ')
    .replace(/\s*\{\s*,\s*\}\s*/g, ',');
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replace(TEXT_COMMANDS, ' $1 ');
  }
  s = s
    // `\cos 40^\circ` is the cosine of 40 degrees: the angle in radians, before degree signs go.
    .replace(
      TRIG_DEGREES,
      (_, call: string, open: string, angle: string) => `${call}${open}(\\frac{${angle}\\pi}{180})`,
    )
    .replace(/\^\s*\{?\s*\\circ\s*\}?/g, '')
    .replace(/\\(?:circ|degree)(?![a-zA-Z])/g, '')
    .replace(/°/g, '')
    .replace(/\\\$|\$|US\$|USD|€|£|¥|\\euro/g, '');
  let percent = false;
  s = s.replace(/\s*(?:\\%|%|\bpercent\b)\s*\.?\s*$/i, () => {
    percent = true;
    return '';
  });
  // A trailing period, and a stray backslash left where a line or a command was cut (`185\\`).
  s = s.trim().replace(/(?:\s*(?:[.。]|\\+(?![A-Za-z{}])))+$/, '');
  // What is left of a chain whose start was cut off (`= 90 - 25 = 65`).
  s = s.replace(/^=\s*/, '');
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replace(UNIT_SUFFIX, '').replace(LETTER_UNIT_SUFFIX, '').trim();
  }
  // "option B", "choice (C)": the option letter.
  s = s.replace(/^(?:option|choice)\s+(?=\(?[A-J]\)?$)/i, '');
  // An answer written as one number word ("five", "twelve").
  const word = NUMBER_WORDS.indexOf(s.toLowerCase());
  if (word >= 0) s = String(word);
  // Python's imaginary unit: `3+2j` is `3+2i` (only where no `i` is written).
  if (/^[-+\d.\s]*\d\s*j$|^[-+\d.\s]*j\s*[-+]/.test(s) && !s.includes('i')) s = s.replace(/j/g, 'i');
  // Words after a plain number are a unit or a noun ("5 apples").
  s = s.replace(/^(-?\d[\d,]*(?:\.\d+)?)\s+[a-zA-Z][a-zA-Z\s]*$/, '$1');
  // Thousands separated by commas or by (thin) spaces.
  if (/^-?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$/.test(s) || /^-?\d{1,3}(?: \d{3})+(?:\.\d+)?$/.test(s)) {
    s = s.replace(/[, ]/g, '');
  }
  s = s
    .replace(/\\frac\s*(\w)\s*(\w)/g, '\\frac{$1}{$2}')
    .replace(/\\frac\s*(\w)\s*\{/g, '\\frac{$1}{')
    .replace(/\\frac\s*(\{[^{}]*\})\s*(\w)/g, '\\frac$1{$2}')
    .replace(/\\sqrt\s*(\w)/g, '\\sqrt{$1}')
    // Primes: `f^\prime` and `f^{\prime}` are `f'`.
    .replace(/\^\s*\{?\s*((?:\\prime\s*)+)\}?|\\prime/g, (_: string, primes?: string) =>
      "'".repeat(primes === undefined ? 1 : (primes.match(/\\prime/g) ?? []).length),
    )
    .replace(/\\(?:leq|leqslant)(?![a-zA-Z])/g, '\\le')
    .replace(/\\(?:geq|geqslant)(?![a-zA-Z])/g, '\\ge')
    .replace(/\\ne(?![a-zA-Z])|!=/g, '\\neq')
    .replace(/\binfinity\b|\binf\b/gi, '\\infty')
    .replace(/^[A-Za-z]\s*\\in(?![a-zA-Z])\s*/, '')
    .replace(/\\mathbb\s*\{?R\}?/g, '(-\\infty, \\infty)')
    .replace(/\\(?:emptyset|varnothing)(?![a-zA-Z])|\\\{\s*\\\}/g, '\\{\\}')
    // MATH writes mixed numbers as 3\frac{1}{2}: three and a half, not three halves.
    .replace(/(?<![\d.}^_])(\d+)\s*\\frac\{(\d+)\}\{(\d+)\}/g, '($1+\\frac{$2}{$3})')
    .replace(/\s+/g, ' ')
    .trim();
  return { text: s, percent };
}

/** The normalized text without any whitespace, for plain string equality. */
export function compactForm(text: string): string {
  return text.replace(/\s+/g, '');
}
