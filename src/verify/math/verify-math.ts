import {
  type ExtractedAnswer,
  type ExtractionRule,
  extractMathAnswer,
  extractReference,
  type MultipleAnswers,
} from './extract-math-answer.js';
import {
  type Equivalence,
  type EquivalenceMethod,
  type EquivalenceOptions,
  mathEquivalent,
} from './math-equivalent.js';
import { parseMathValue } from './math-value.js';
import { normalizeMathAnswer } from './normalize-math.js';

export interface MathOptions extends EquivalenceOptions {
  /** Use the last number outside math when the response has nothing better (default true). */
  lastNumberFallback?: boolean;
  /**
   * Several distinct `\boxed{}` answers: `reject` (default) reads them as one list answer when the
   * reference has several parts and as wrong when it has one (boxing every candidate is answer
   * enumeration); `all` always reads them as one list answer; `last` keeps only the last box.
   */
  multipleAnswers?: MultipleAnswers;
  /** Record the candidates, normalized forms and each comparison in `explanation` (default false). */
  explain?: boolean;
}

/** `correct`, `incorrect`, or `undecided`: the comparison could not be carried out (and why). */
export type MathStatus = 'correct' | 'incorrect' | 'undecided';

/** What `--explain` shows: how the answer was found and what each comparison decided. */
export interface MathExplanation {
  candidates: ExtractedAnswer['candidates'];
  answer: string | null;
  comparisons: Array<{
    reference: string;
    normalized: Equivalence['normalized'];
    equal: boolean;
    undecided: boolean;
    method: EquivalenceMethod | null;
    detail: string | null;
  }>;
}

/** The verdict on one response, with what was read from it and why. */
export interface MathVerification {
  correct: boolean;
  status: MathStatus;
  /** The final answer as extracted from the response, before normalization; null when none was found. */
  extracted: string | null;
  rule: ExtractionRule;
  /** The reference that matched, when one did. */
  matchedReference: string | null;
  method: EquivalenceMethod | null;
  reason: string;
  timedOut: boolean;
  warnings: string[];
  explanation?: MathExplanation;
}

/** A reference with several parts (a list, set or tuple): several boxed answers may be its parts. */
function hasSeveralParts(reference: string): boolean {
  const kind = parseMathValue(normalizeMathAnswer(reference).text).kind;
  return kind === 'list' || kind === 'set' || kind === 'tuple' || kind === 'union';
}

/** Boxes beyond this many are told apart by their text only: pairwise equivalence is quadratic. */
const MAX_COMPARED_BOXES = 16;

/** Distinct answers, where equivalent repeats (`\boxed{1/2}` and `\boxed{0.5}`) count once. */
function distinctAnswers(answers: string[], options: MathOptions): string[] {
  if (answers.length > MAX_COMPARED_BOXES) {
    return [...new Map(answers.map((a) => [normalizeMathAnswer(a).text.replace(/\s+/g, ''), a])).values()];
  }
  const distinct: string[] = [];
  for (const answer of answers) {
    if (!distinct.some((d) => mathEquivalent(answer, d, { ...options, timeoutMs: 200 }).equal)) {
      distinct.push(answer);
    }
  }
  return distinct;
}

/**
 * Whether the final answer of `response` is equivalent to any of the references. References may
 * be bare answers or full solutions (their boxed answer or `####` line is used).
 */
export function verifyMath(
  response: string,
  references: string | readonly string[],
  options: MathOptions = {},
): MathVerification {
  const golds = (typeof references === 'string' ? [references] : references).map(extractReference);
  const extraction = extractMathAnswer(response, {
    lastNumberFallback: options.lastNumberFallback ?? true,
    choice: golds.every((gold) => /^\(?[A-J]\)?$/.test(gold.trim())),
    allCandidates: options.explain === true,
  });
  const explanation: MathExplanation | undefined = options.explain
    ? { candidates: extraction.candidates, answer: null, comparisons: [] }
    : undefined;
  const base = { rule: extraction.rule, ...(explanation && { explanation }) };
  const verdict = (
    status: MathStatus,
    extracted: string | null,
    reason: string,
    rest: Partial<MathVerification> = {},
  ): MathVerification => {
    if (explanation) explanation.answer = extracted;
    return {
      correct: status === 'correct',
      status,
      extracted,
      matchedReference: null,
      method: null,
      reason,
      timedOut: false,
      warnings: [],
      ...base,
      ...rest,
    };
  };
  if (extraction.answer === null) {
    return verdict('incorrect', null, extraction.reason ?? 'no answer found');
  }

  let answer = extraction.answer;
  if (extraction.answers.length > 1) {
    const mode = options.multipleAnswers ?? 'reject';
    const distinct = mode === 'last' ? [] : distinctAnswers(extraction.answers, options);
    if (mode !== 'last' && distinct.length > 1) {
      answer = distinct.join(', ');
      if (mode === 'reject' && !golds.some(hasSeveralParts)) {
        return verdict(
          'incorrect',
          answer,
          `${distinct.length} distinct boxed answers (${distinct.map((d) => JSON.stringify(d)).join(', ')}) for a one-part reference: enumerating answers is not answering`,
        );
      }
    }
  }

  const warnings: string[] = [];
  let timedOut = false;
  const undecided: string[] = [];
  for (const gold of golds) {
    const result = mathEquivalent(answer, gold, options);
    explanation?.comparisons.push({
      reference: gold,
      normalized: result.normalized,
      equal: result.equal,
      undecided: result.undecided,
      method: result.method,
      detail: result.undecidedReason,
    });
    warnings.push(...result.warnings);
    timedOut ||= result.timedOut;
    if (result.undecidedReason !== null) undecided.push(result.undecidedReason);
    if (result.equal) {
      return verdict(
        'correct',
        answer,
        `${JSON.stringify(answer)} (${extraction.rule}) equals ${JSON.stringify(gold)} (${result.method})`,
        { matchedReference: gold, method: result.method, warnings },
      );
    }
  }
  const against = golds.length === 1 ? JSON.stringify(golds[0]) : `any of ${JSON.stringify(golds)}`;
  if (undecided.length > 0) {
    return verdict(
      'undecided',
      answer,
      `could not decide whether ${JSON.stringify(answer)} equals ${against}: ${[...new Set(undecided)].join('; ')}`,
      { timedOut, warnings },
    );
  }
  return verdict(
    'incorrect',
    answer,
    `${JSON.stringify(answer)} (${extraction.rule}) is not equivalent to ${against}`,
    {
      warnings,
    },
  );
}
