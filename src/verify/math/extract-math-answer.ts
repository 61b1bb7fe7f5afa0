import { ANSWER_ANCHOR } from './answer-anchor.js';
import { optionLetter } from './option-letter.js';
import { closingParen, lastPlainExpression, PLAIN_CALL } from './plain-text-math.js';

/**
 * Which rule produced the extracted answer, in order of evidence: a boxed answer, an answer
 * anchor ("the final answer is"), a GSM8K `####` line, an option letter (when the references are
 * letters), the last math span, a short response that is itself an answer, the last number.
 */
export type ExtractionRule =
  | 'boxed'
  | 'anchor'
  | 'gsm8k'
  | 'choice'
  | 'math_span'
  | 'bare_expression'
  | 'last_number'
  | 'none';

/** Every `\boxed{}` of a response is one answer; how several distinct ones are read. */
export type MultipleAnswers = 'reject' | 'all' | 'last';

export interface ExtractedAnswer {
  /**
   * The answers found by the deciding rule, in order: several only for boxed answers (a response
   * may box each part of a multi-part answer); empty when none was found.
   */
  answers: string[];
  /** The deciding rule's last answer (what most callers want); null when none was found. */
  answer: string | null;
  rule: ExtractionRule;
  /** Why nothing was extracted, when `answer` is null. */
  reason?: string;
  /** What each rule found, for `--explain`: every rule that found something, in order of evidence. */
  candidates: Array<{ rule: ExtractionRule; text: string }>;
}

export interface ExtractOptions {
  /** Take the last number outside math when nothing better is found (default true). */
  lastNumberFallback?: boolean;
  /** Take the last math span, or a short response that is itself an answer, when no boxed answer or anchor is found (default true). */
  mathSpanFallback?: boolean;
  /** The references are option letters: a response's own option letter is evidence too. */
  choice?: boolean;
  /**
   * Look for every rule's reading, for `candidates` (default true). False stops at a boxed answer,
   * an answer anchor or a `####` line, which the later rules cannot overrule: the same answer,
   * with `candidates` holding only the readings found until then (`verifyMath` without `explain`;
   * half the verifier's time for a GSM8K-style response went into the fallback rules' scans).
   */
  allCandidates?: boolean;
}

/**
 * The text after the reasoning: after the last `</think>`. A response that opens a think block and
 * never closes it has no final answer, however many numbers its reasoning contains.
 */
export function stripThinking(response: string): { text: string; unterminated: boolean } {
  const close = response.lastIndexOf('</think>');
  if (close >= 0) return { text: response.slice(close + '</think>'.length), unterminated: false };
  if (/<think>/i.test(response)) return { text: '', unterminated: true };
  return { text: response, unterminated: false };
}

const BOX = /\\(?:boxed|fbox)\s*(\{|\s+(?=[^\s{]))/g;

/** The contents of every `\boxed{…}` / `\fbox{…}`, braces balanced, in order; unbalanced ones are skipped. */
export function allBoxed(text: string): string[] {
  const found: string[] = [];
  BOX.lastIndex = 0;
  for (let m = BOX.exec(text); m !== null; m = BOX.exec(text)) {
    const start = m.index + m[0].length;
    if (m[1] === '{') {
      const end = matchingBrace(text, start - 1);
      if (end < 0) continue;
      found.push(text.slice(start, end));
      BOX.lastIndex = end + 1;
    } else {
      // `\boxed 5`: the argument is the next token.
      const token = /^[^\s$]+/.exec(text.slice(start))?.[0];
      if (token !== undefined) found.push(token);
    }
  }
  return found;
}

/** The content of the last `\boxed{…}` (or `\fbox{…}`), braces balanced; null when there is none. */
export function lastBoxed(text: string): string | null {
  return allBoxed(text).at(-1) ?? null;
}

/** Index of the brace closing the one at `open`, or -1 when unbalanced. Escaped braces `\{` count as text. */
export function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** A word of three or more letters outside LaTeX commands: prose, not math. */
const PROSE_WORD = /(?<![\\A-Za-z])[A-Za-z]{3,}/;

/**
 * A letter of a script other than Latin or Greek (Chinese, Japanese, Korean, Cyrillic, Thai, …):
 * one is prose, however short the text, since no math is written in them (π and θ are; so are
 * the letterlike symbols of no script, ℝ and ℵ).
 */
const OTHER_SCRIPT = /(?!\p{Script=Latin}|\p{Script=Greek}|\p{Script=Common})\p{L}/u;

/** Prose in a text stripped of its math: a word of three or more Latin letters, or any letter of another script. */
function hasProse(text: string): boolean {
  return PROSE_WORD.test(text) || otherScript(text);
}

/** {@link OTHER_SCRIPT}, tested only on text with a character outside ASCII (most responses have none). */
function otherScript(text: string): boolean {
  return NON_ASCII.test(text) && OTHER_SCRIPT.test(text);
}

const NON_ASCII = /[^\t\n\r -~]/;

/** A math span of the text: its content and where it starts and ends (delimiters included). */
interface MathSpan {
  content: string;
  start: number;
  end: number;
}

const MAX_INLINE_MATH = 4000;

/**
 * The math spans of a text in order: `$$…$$`, `$…$`, `\[…\]`, `\(…\)`. A single `$` follows
 * pandoc's rule (no space inside either delimiter, no digit right after the closing one, no blank
 * line inside), and a "span" whose content is prose is two currency signs (`$12 an hour, so $`),
 * not math. An escaped dollar `\$` is currency. A span that never closes is not a span.
 */
export function mathSpans(text: string): MathSpan[] {
  const spans: MathSpan[] = [];
  const closers = inlineClosers(text);
  let next = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && (text[i + 1] === '[' || text[i + 1] === '(')) {
      const closer = text[i + 1] === '[' ? '\\]' : '\\)';
      const end = text.indexOf(closer, i + 2);
      if (end < 0) break;
      spans.push({ content: text.slice(i + 2, end), start: i, end: end + 2 });
      i = end + 2;
    } else if (ch === '\\') {
      i += 2;
    } else if (ch === '$' && text[i + 1] === '$') {
      const end = findUnescaped(text, '$$', i + 2);
      if (end < 0) break;
      spans.push({ content: text.slice(i + 2, end), start: i, end: end + 2 });
      i = end + 2;
    } else if (ch === '$') {
      while (next < closers.length && (closers[next] as number) <= i + 1) next++;
      const end = closers[next] ?? -1;
      const content = end < 0 ? '' : text.slice(i + 1, end);
      if (
        /\s/.test(text[i + 1] ?? ' ') ||
        end < 0 ||
        end - i > MAX_INLINE_MATH ||
        content.includes('\n\n') ||
        isCurrency(content)
      ) {
        i++;
        continue;
      }
      spans.push({ content, start: i, end: end + 1 });
      i = end + 1;
    } else i++;
  }
  return withSpacedEnvironments(text, spans);
}

/**
 * `$ \begin{pmatrix}…\end{pmatrix} $`: an environment in a `$` pair with spaces inside, which the
 * `$` rule above refuses (it would take prose), is still math when nothing but the environment
 * (and its `\left[ … \right]`) is between the signs.
 */
const SPACED_ENVIRONMENT =
  /(?<![\\$])\$[ \t]+((?:\\left\s*[[(]\s*)?\\begin\{([a-zA-Z]*matrix|array)\}[\s\S]{0,4000}?\\end\{\2\}(?:\s*\\right\s*[\])])?)[ \t]*\$/g;

function withSpacedEnvironments(text: string, spans: MathSpan[]): MathSpan[] {
  if (!text.includes('\\begin')) return spans;
  const extra: MathSpan[] = [];
  for (const m of text.matchAll(SPACED_ENVIRONMENT)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!spans.some((span) => span.start < end && start < span.end)) {
      extra.push({ content: m[1] as string, start, end });
    }
  }
  return extra.length === 0 ? spans : [...spans, ...extra].sort((x, y) => x.start - y.start);
}

/**
 * Every position where a single `$` may close inline math (unescaped, no space before it, no
 * digit after it), found in one pass so that a text full of currency signs stays linear.
 */
function inlineClosers(text: string): number[] {
  const closers: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '$' && !/\s/.test(text[i - 1] ?? ' ') && !/\d/.test(text[i + 1] ?? '')) closers.push(i);
  }
  return closers;
}

/** Prose: a word of three or more letters that is not a LaTeX command or the argument of one (`\text{odd}`). */
function isProse(text: string): boolean {
  // Plain-text calls (`sqrt(5)`) are math, not words.
  const words = text.includes('(') ? text.replace(PLAIN_CALL, ' ') : text;
  return /(?<![\\A-Za-z{])[A-Za-z]{3,}/.test(words) || otherScript(words);
}

/** Two currency signs around prose (`$12 an hour, so $`): the "content" starts with an amount and reads as words. */
function isCurrency(content: string): boolean {
  // Words inside `\text{…}` are the math's own (`19, 46, \text{ and } 82`).
  return /^[\d.,]/.test(content) && isProse(content.replace(/\\[A-Za-z]+\s*\{[^{}]*\}/g, ' '));
}

function findUnescaped(text: string, needle: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text.startsWith(needle, i)) return i;
  }
  return -1;
}

/**
 * The text with every math span removed, and everything from an unterminated `$$`, `\(` or `\[`
 * on: a number is only taken from prose, never out of a formula it is part of. A lone `$` before
 * a digit is currency and stays.
 */
function proseOutsideMath(text: string, spans: readonly MathSpan[] = mathSpans(text)): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += `${text.slice(at, span.start)} `;
    at = span.end;
  }
  const rest = text.slice(at);
  const open = /\$\$|(?<!\\)\$(?![\d\s])|\\[([]/.exec(rest);
  const prose = out + (open ? rest.slice(0, open.index) : rest);
  // MATH's digit grouping (`97,\!248`, `10\,000`) is one number, not LaTeX to drop.
  return withoutLatex(prose.replace(/(\d)(?:,\\!\s*|\\,)(?=\d{3}(?!\d))/g, '$1,'));
}

const PLAIN_CALL_AT = new RegExp(`^(?:${PLAIN_CALL.source})\\s*\\(`);

/** The text with its math spans replaced by spaces: plain-text math is read from the prose only. */
function blankedSpans(text: string, spans: readonly MathSpan[]): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += `${text.slice(at, span.start)}${' '.repeat(span.end - span.start)}`;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * Prose with LaTeX written outside delimiters taken out: a command with its braced arguments
 * (`\frac{3}{4}`, `\boxed{2}`) and exponents or subscripts (`x^2`, `a_{10}`) are not numbers of the text.
 */
function withoutLatex(text: string): string {
  let out = '';
  let i = 0;
  const calls = text.includes('(');
  while (i < text.length) {
    const call =
      calls && /[a-z]/.test(text[i] as string) && !/[\\A-Za-z]/.test(text[i - 1] ?? '')
        ? PLAIN_CALL_AT.exec(text.slice(i, i + 12))
        : null;
    if (call !== null) {
      // `sqrt(5)` written in plain text: its digits are not numbers of the prose either.
      const close = closingParen(text, i + call[0].length - 1);
      if (close < 0) return out;
      i = close + 1;
      out += ' ';
      continue;
    }
    const command = /^\\[A-Za-z]+|^[\^_]/.exec(text.slice(i, i + 40));
    if (command === null) {
      out += text[i];
      i++;
      continue;
    }
    i += command[0].length;
    for (;;) {
      while (text[i] === ' ') i++;
      if (text[i] !== '{') break;
      const close = matchingBrace(text, i);
      if (close < 0) return out;
      i = close + 1;
    }
    if (command[0] !== '\\' && /[\^_]/.test(command[0])) {
      const token = /^\s*[\w.]+/.exec(text.slice(i, i + 40));
      if (token && text[i - 1] !== '}') i += token[0].length;
    }
    out += ' ';
  }
  return out;
}

/** The answer after the last anchor phrase ("the final answer is", "Answer:"), reduced to its math. */
function afterAnchor(text: string): { answer: string; at: number; wordsOnly: boolean } | null {
  let last: RegExpExecArray | null = null;
  ANSWER_ANCHOR.lastIndex = 0;
  for (let m = ANSWER_ANCHOR.exec(text); m !== null; m = ANSWER_ANCHOR.exec(text)) last = m;
  if (last === null) return null;
  const anchored = anchoredAnswer(text.slice(last.index + last[0].length));
  return anchored === null ? null : { ...anchored, at: last.index };
}

/** The anchored answer, and whether it is words only (no digit, math or option letter). */
function anchoredAnswer(rest: string): { answer: string; wordsOnly: boolean } | null {
  const answer = anchoredText(rest);
  if (answer === null) return null;
  return { answer, wordsOnly: !/[\d$\\]/.test(answer) && !/^\(?[A-J]\)?$/.test(answer) };
}

/**
 * What follows an anchor, reduced to the answer: a math span that opens it; else its sentence,
 * which when it is prose ("The largest $n$ is 34.") is reduced to the math span or number at its
 * end. A bare word ("odd", "yes") stays what it is.
 */
function anchoredText(rest: string): string | null {
  // "thus the result is #### 18": a `####` mark between the anchor and its answer.
  const trimmed = rest.replace(/^[\s*]+/, '').replace(/^#{2,}\s*/, '');
  const opening = mathSpans(trimmed)[0];
  if (
    opening !== undefined &&
    opening.start === 0 &&
    // unless more answers follow it (`$x = 2$, $x = 3$`, `$2$ or $3$`)
    !/^\s*(?:[,;]\s*(?:\$|\\[([]|-?\d)|and\b|or\b)/.test(trimmed.slice(opening.end))
  ) {
    return opening.content.trim() || null;
  }
  const sentence = firstSentence(trimmed);
  if (sentence === '') return null;
  const tail = sentence.replace(/[\s.,;:!]+$/, '');
  // "The answer is B because A is too small": an option letter its reasons follow.
  const option = /^\(?([A-J])\)?(?:[,:;]\s*|\s+)(?:because|since|as|which)\s/.exec(tail);
  if (option !== null) return option[1] as string;
  const spans = mathSpans(tail);
  const lastSpan = spans.at(-1);
  const afterSpans = lastSpan === undefined ? tail : tail.slice(lastSpan.end);
  if (!hasProse(proseOutsideMath(tail).replace(/\b(?:and|or)\b/g, ''))) {
    // Math and connectives only ("$x = 2$ or $x = 3$", "12", "(B)"): the whole thing is the answer.
    return spans.length === 0 ? tail : tail.replace(/(?<!\\)\$+|\\[()[\]]/g, ' ').trim();
  }
  const number = lastPlainExpression(afterSpans) ?? lastNumber(proseOutsideMath(afterSpans));
  if (number !== null) return number;
  if (lastSpan !== undefined && afterSpans.trim() === '') return lastSpan.content.trim();
  // Words only: "The answer is odd", "Final answer: no solution".
  return tail;
}

/** The text up to the end of its first sentence (a period that is not a decimal point) or line. */
function firstSentence(text: string): string {
  const line = text.split('\n')[0] ?? '';
  let inMath = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '$') inMath = !inMath;
    else if (!inMath && (ch === '。' || ch === '．')) return line.slice(0, i).replace(/\*\*/g, '').trim();
    else if (!inMath && ch === '.' && !/\d/.test(line[i + 1] ?? '') && /\s|$/.test(line[i + 1] ?? '')) {
      return line.slice(0, i).replace(/\*\*/g, '').trim();
    }
  }
  return line.replace(/\*\*/g, '').trim();
}

// A digit glued to letters (`AZYUK2A`, `x2`) is part of a name, not a number of the text.
const NUMBER = /(?<![A-Za-z_])(?:-?\$?\d[\d,]*(?:\.\d+)?(?:\s*\/\s*\d+)?%?|-?\.\d+%?)(?![A-Za-z]*\d)/g;

/** The last number of the text, with its sign, fraction bar, thousands separators and percent sign. */
function lastNumber(text: string): string | null {
  const numbers = text.match(NUMBER);
  const last = numbers?.at(-1);
  return last === undefined ? null : last.replace(/,$/, '').trim();
}

const SHORT_SENTENCE = /(?<![A-Za-z])(?!(?:and|or)\b)[A-Za-z][a-z]+\s+(?!(?:and|or)\b)[a-z]{2,}(?![A-Za-z])/;

/**
 * A short response that is itself the answer: an expression with no prose ("3/4", "x = 5",
 * "\frac{1}{2}", a matrix) or a few words and nothing else ("odd", "no solution").
 */
function bareExpression(text: string): string | null {
  const trimmed = text.trim().replace(/\.$/, '');
  if (trimmed === '' || trimmed.length > 200 || trimmed.includes('\n\n')) return null;
  if (/\\(?:boxed|fbox)/.test(trimmed)) return null;
  if (/^[A-Za-z]+(?: [A-Za-z]+){0,2}$/.test(trimmed) && trimmed.length <= 40) return trimmed;
  if (trimmed.length > 80 && !trimmed.startsWith('\\begin')) return null;
  const words = trimmed.replace(/\\[A-Za-z]+/g, ' ');
  // Two short words in a row ("It is 6", "so we get 2*3 = 6") are a sentence, not an answer.
  if (isProse(words) || SHORT_SENTENCE.test(words)) return null;
  return /\d|\\[A-Za-z]|^[A-Za-z]'*$/.test(trimmed) ? trimmed : null;
}

/**
 * The final answer of a model response, by the strongest evidence present after stripping
 * `<think>` blocks: every `\boxed{}`; else the answer after the last anchor phrase, reduced to its
 * math; else the last `####` line (GSM8K); else the last math span; else the whole response when
 * it is a short expression; else the last number outside any math span. Every rule that found
 * something is listed in `candidates`.
 */
export function extractMathAnswer(response: string, options: ExtractOptions = {}): ExtractedAnswer {
  const { text, unterminated } = stripThinking(response);
  if (unterminated) {
    return none('the <think> block is never closed', []);
  }
  const spanFallback = options.mathSpanFallback ?? true;
  const numberFallback = options.lastNumberFallback ?? true;
  const candidates: ExtractedAnswer['candidates'] = [];
  const boxes = allBoxed(text);
  for (const box of boxes) candidates.push({ rule: 'boxed', text: box.trim() });
  const anchored = afterAnchor(text);
  if (anchored !== null) candidates.push({ rule: 'anchor', text: anchored.answer });
  const hashes = text.lastIndexOf('####');
  const hashLine = hashes >= 0 ? (text.slice(hashes + 4).split('\n')[0] ?? '').trim() : '';
  if (hashLine !== '') candidates.push({ rule: 'gsm8k', text: hashLine });
  // "Final answer: 10,455" after boxed intermediate results states the answer last; words after a
  // box ("\boxed{42}. I am sure the answer is correct.") talk about the answer, they do not replace it.
  const anchorLast =
    anchored !== null &&
    !anchored.wordsOnly &&
    boxes.length > 0 &&
    anchored.at > text.search(/\\(?:boxed|fbox)(?![\s\S]*\\(?:boxed|fbox))/);
  // A box, an anchor or a `####` line decides before any rule below is read (see the end).
  const decided = boxes.length > 0 || anchored !== null || hashLine !== '';
  const readRest = (options.allCandidates ?? true) || !decided;
  const letter = readRest && options.choice ? optionLetter(text) : null;
  if (letter !== null) candidates.push({ rule: 'choice', text: letter });
  const spans = readRest ? mathSpans(text) : [];
  const lastSpan = spans.at(-1);
  const span = spanFallback ? lastSpan?.content.trim() : undefined;
  if (span) candidates.push({ rule: 'math_span', text: span });
  const bare = readRest && spanFallback ? bareExpression(text) : null;
  if (bare !== null) candidates.push({ rule: 'bare_expression', text: bare });
  // Never a digit out of an expression: a plain-text one (`2 + sqrt(5)`) is read whole.
  const number =
    readRest && numberFallback
      ? (lastPlainExpression(blankedSpans(text, spans)) ?? lastNumber(proseOutsideMath(text, spans)))
      : null;
  if (number !== null) candidates.push({ rule: 'last_number', text: number });

  if (boxes.length > 0 && !anchorLast) {
    const answers = boxes.map((b) => b.trim());
    if (answers.every((a) => a === '')) return none('the \\boxed{} answer is empty', candidates);
    const filled = answers.filter((a) => a !== '');
    return { answers: filled, answer: filled.at(-1) ?? null, rule: 'boxed', candidates };
  }
  // Only a response with no box, anchor or `####` line can conclude in prose.
  const concluded =
    boxes.length === 0 && anchored === null && hashes < 0 ? numberConcludes(text, number, lastSpan) : null;
  const first = concluded ?? candidates.find((c) => c.rule !== 'boxed');
  if (first === undefined) {
    return none(
      'no \\boxed{} answer, answer anchor, "####" line, math or number in the response',
      candidates,
    );
  }
  return { answers: [first.text], answer: first.text, rule: first.rule, candidates };
}

/**
 * The last number, when a sentence of prose after the last math span states it ("we get $d =
 * \frac{90}{n}$. […] Therefore, there are 12 sequences."): the conclusion comes after the working.
 * A number in the same sentence as the span (`$\frac{1}{2}$, checked in 2 steps`) does not count.
 */
function numberConcludes(
  text: string,
  number: string | null,
  lastSpan: MathSpan | undefined,
): { rule: ExtractionRule; text: string } | null {
  if (number === null || lastSpan === undefined) return null;
  const tail = text.slice(lastSpan.end);
  const at = tail.lastIndexOf(number);
  const sentenceEnds = /[.!?]\s*$/.test(lastSpan.content) || /[.!?](?:\s|$)|\n/.test(tail.slice(0, at));
  if (at < 0 || !sentenceEnds) return null;
  return { rule: 'last_number', text: number };
}

function none(reason: string, candidates: ExtractedAnswer['candidates']): ExtractedAnswer {
  return { answers: [], answer: null, rule: 'none', reason, candidates };
}

/**
 * A reference answer as a dataset stores it: a MATH solution's boxed answer (several boxes are
 * the parts of one answer, joined as a list), a GSM8K answer's `####` line, the answer a worked
 * solution without either ends in, or else the whole string.
 */
export function extractReference(reference: string): string {
  const boxes = allBoxed(reference)
    .map((b) => b.trim())
    .filter((b) => b !== '');
  if (boxes.length > 0) return [...new Set(boxes)].join(', ');
  const hashes = reference.lastIndexOf('####');
  if (hashes >= 0) return (reference.slice(hashes + 4).split('\n')[0] ?? '').trim();
  // A worked solution without a box ends in its answer, found the way a response's is; the
  // rollouts of a group share their reference, so the reading is kept.
  const known = solutionAnswers.get(reference);
  if (known !== undefined) return known;
  const words = reference.replace(/\$[^$]*\$/g, ' ').match(/(?<![\\A-Za-z])[A-Za-z]{2,}/g) ?? [];
  const answer = (words.length >= 8 ? extractMathAnswer(reference).answer : null) ?? reference.trim();
  if (solutionAnswers.size >= SOLUTION_CACHE_SIZE)
    solutionAnswers.delete(solutionAnswers.keys().next().value as string);
  solutionAnswers.set(reference, answer);
  return answer;
}

const solutionAnswers = new Map<string, string>();
const SOLUTION_CACHE_SIZE = 1024;
