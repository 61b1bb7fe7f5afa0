/**
 * The option a response picks in a multiple-choice question: the letter that opens it (`B. Because
 * …`, `(B) 12`); else, on its last line, the letter a phrase picks ("so I would go with C", "the
 * answer is (B)", "it has to be A", "故选B"), or the letter the line concludes with ("Option A
 * gives 12, so B."); else the one option letter standing alone there ("So B is
 * right"). Letters the line rules out ("not B or D", "rather than D"), the pronoun "I", the article
 * "A" and letters that an expression uses (`\mathrm{B}\cdot 3` is 3B) are not options. Several
 * different letters are no answer: naming every option is not picking one.
 */
export function optionLetter(text: string): string | null {
  const opening = /^\s*\(?([A-J])(?:[.):]|\s*$)/.exec(text);
  if (opening) return opening[1] as string;
  const lastLine = lastClauses(text.trim().split('\n').at(-1) ?? '')
    // `\mathrm{B}`, `\textbf{(C)}`: the letter as written.
    .replace(/\\(?:text|textbf|mathrm|mathbf|mbox)\s*\{([^{}]*)\}/g, ' $1 ')
    .replace(RULED_OUT, ' ')
    .replace(RULED_OUT_AFTER, ' ');
  const standing = [...lastLine.matchAll(STANDING)]
    .map((m) => ({ letter: m[1] as string, at: letterAt(m) }))
    .filter(({ at }) => !inExpression(lastLine, at) && !isWord(lastLine, at));
  // The phrases match in any case; the letter they pick is a capital. A pick that a second
  // thought names another option after ("it would be A if …, but it is C") decides nothing; an
  // explanation naming others ("it has to be B: A is negative") does not undo it.
  const picked = [...lastLine.matchAll(PICKED)]
    .map((m) => ({ letter: m[1] as string, at: letterAt(m) }))
    .filter(({ letter, at }) => /^[A-J]$/.test(letter) && !inExpression(lastLine, at))
    .at(-1);
  const reconsidered = (s: { letter: string; at: number }) =>
    picked !== undefined &&
    s.at > picked.at &&
    s.letter !== picked.letter &&
    SECOND_THOUGHT.test(lastLine.slice(picked.at, s.at));
  if (picked !== undefined && !standing.some(reconsidered)) {
    return picked.letter;
  }
  const concluded = CONCLUDED.exec(lastLine);
  if (concluded !== null && /^[A-J]$/.test(concluded[1] as string)) return concluded[1] as string;
  const letters = new Set(standing.map((s) => s.letter));
  return letters.size === 1 ? ([...letters][0] as string) : null;
}

const MAX_LINE = 1000;

/**
 * The end of the last line, where an option is picked: a long line is read from the first clause
 * that starts in its last 1,000 characters (a cut clause could lose its "not"), which keeps the
 * scans linear however many letters an adversarial line repeats; empty when no clause starts there.
 */
function lastClauses(line: string): string {
  if (line.length <= MAX_LINE) return line;
  const tail = line.slice(-MAX_LINE);
  const clause = /[,.;:!?。，；]/.exec(tail);
  return clause === null ? '' : tail.slice(clause.index + 1);
}

/** Where a match's letter (its first group) is in the line. */
function letterAt(m: RegExpMatchArray): number {
  return (m.index ?? 0) + m[0].lastIndexOf(m[1] as string);
}

const LETTER = "\\(?([A-J])\\)?(?![\\w'’])";

/** A letter standing alone: not inside a word, a command or a math span. */
const STANDING = new RegExp(`(?<![\\w\\\\$'’])${LETTER}`, 'g');

/** The Chinese phrases that pick an option (OpenCompass's `first_option_postprocess` reads them): 答案应该选, 故选, 所以, 因此. */
const CHINESE_PICKS = '答案(?:选项)?应?该?(?:是|为|选)|故选?|选择?|所以|因此|显然|即';

/** A phrase that picks an option, and the letter it picks. */
const PICKED = new RegExp(
  `(?:go(?:ing)?\\s+with|choose|chose|pick|select|choice\\s+is|answer(?:\\s+to\\s+the\\s+question)?\\s+is(?:\\s+option)?|must\\s+be|has\\s+to\\s+be|should\\s+be|would\\s+be|is\\s+correct[:,]?|${CHINESE_PICKS})\\s*${LETTER}`,
  'gi',
);

/** Words that turn a pick into a hypothesis or take it back. */
const SECOND_THOUGHT = /\b(?:if|but|however|although|though|unless|actually|wait|instead)\b|但|如果|不过/i;

/** "…, so B." and "Therefore C": a line that ends in a conclusion's letter has picked it. */
const CONCLUDED = new RegExp(`\\b(?:so|thus|hence|therefore)[,:]?\\s*${LETTER}\\s*[.!]?\\s*$`, 'i');

/** "not B or D", "rather than D", "instead of C": letters ruled out, up to the end of their clause. */
const RULED_OUT =
  /\b(?:not|neither|rather\s+than|instead\s+of|except|nor|isn['’]t|cannot\s+be|can['’]t\s+be|rules?\s+out|ruling\s+out)\b[^,.;:!?]*?(?=[,.;:!?]|\bbut\b|\bso\b|$)/gi;

/**
 * Letters the line rules out after naming them: "A and D fail", "C is wrong", "A 和 C 都不对",
 * "选项 A 错误".
 */
const RULED_OUT_AFTER =
  /\(?[A-J]\)?(?=(?:\s*(?:,|and|or|和|与|、)\s*\(?[A-J]\)?)*\s*(?:(?:is|are)\s+(?:wrong|incorrect|false|invalid|impossible|ruled\s+out)\b|fails?\b|都?不(?:对|正确|成立)|错误|有误))/g;

/** Whether the character at `at` sits next to an operator: `\mathrm{E}*2` is E times 2, not option E. */
function inExpression(line: string, at: number): boolean {
  const before = line.slice(Math.max(0, at - 12), at).replace(/[\s{}()]+$/, '');
  const after = line.slice(at + 1, at + 13).replace(/^[\s{}()]+/, '');
  const operator = /(?:[*+\-/^=_×·]|\\(?:cdot|times|div))$/;
  return operator.test(before) || /^(?:[*+\-/^=_×·]|\\(?:cdot|times|div)(?![A-Za-z]))/.test(after);
}

/**
 * The pronoun "I" ("I would go with C", "I'm sure") and the article "A" opening a sentence ("A quick
 * check rules out…") are words, not options; "I is correct" and "A and C fail" name options.
 */
function isWord(line: string, at: number): boolean {
  const letter = line[at];
  const rest = line.slice(at + 1, at + 40);
  if (letter === 'I') return /^['’]|^\s+(?!(?:is|was|and|or|fits|works|holds)\b)[a-z]/.test(rest);
  if (letter === 'A') {
    const sentenceStart = at === 0 || /[.!?]\s+$/.test(line.slice(Math.max(0, at - 8), at));
    return (
      sentenceStart &&
      /^\s+(?!(?:is|was|and|or|fits|works|holds|must|would|should|seems|matches|gives)\b)[a-z]/.test(rest)
    );
  }
  return false;
}
