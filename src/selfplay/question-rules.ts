import type { RetrievedDoc } from '../retrieval/index.js';
import { normalizeAnswer } from '../verify/reference/index.js';
import type { QuestionRejection } from './question-rejection.js';
import { segmentedWordCount } from './segmented-word-count.js';

/** The limits of the rule checks (defaults: 10 to 1000 characters, at least 10 words, 2 searches). */
export interface QuestionLimits {
  minChars: number;
  maxChars: number;
  minWords: number;
  minSearches: number;
}

export const DEFAULT_QUESTION_LIMITS: QuestionLimits = {
  minChars: 10,
  maxChars: 1000,
  minWords: 10,
  minSearches: 2,
};

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * Whether a gold answer appears in the question, both normalized (case, punctuation, articles);
 * on word boundaries for spaced scripts ("Paris" is not in "comparison"), anywhere for CJK.
 */
export function answerInQuestion(question: string, golds: readonly string[]): string | null {
  const q = normalizeAnswer(question);
  for (const gold of golds) {
    const g = normalizeAnswer(gold);
    if (g === '') continue;
    if (CJK.test(g) ? q.includes(g) : ` ${q} `.includes(` ${g} `)) return gold;
  }
  return null;
}

/**
 * The cheap checks of a proposed question, all of them: every rule that fails is reported. The RAG
 * check (`ragCheck`) runs only on questions that pass these.
 */
export function questionRuleRejections(
  proposal: {
    question: string | null;
    golds: readonly string[];
    searches: readonly string[];
    documents: readonly (readonly RetrievedDoc[])[];
  },
  limits: QuestionLimits = DEFAULT_QUESTION_LIMITS,
): QuestionRejection[] {
  const out: QuestionRejection[] = [];
  const { question } = proposal;
  if (question === null || question === '') {
    out.push({ code: 'no_question', message: 'no <question>…</question> block in the proposer output' });
  } else {
    const chars = [...question].length;
    if (chars < limits.minChars)
      out.push({ code: 'too_short', message: `${chars} characters, fewer than ${limits.minChars}` });
    if (chars > limits.maxChars)
      out.push({ code: 'too_long', message: `${chars} characters, more than ${limits.maxChars}` });
    const words = segmentedWordCount(question);
    if (words < limits.minWords)
      out.push({ code: 'too_few_words', message: `${words} words, fewer than ${limits.minWords}` });
    const leaked = answerInQuestion(question, proposal.golds);
    if (leaked !== null)
      out.push({ code: 'answer_in_question', message: `the question contains the answer "${leaked}"` });
  }
  if (proposal.documents.every((docs) => docs.length === 0))
    out.push({ code: 'no_retrieved_content', message: 'the proposer retrieved no documents' });
  if (proposal.searches.length < limits.minSearches)
    out.push({
      code: 'too_few_searches',
      message: `${proposal.searches.length} search(es), fewer than ${limits.minSearches}`,
    });
  const seen = new Set<string>();
  for (const search of proposal.searches) {
    const key = normalizeAnswer(search);
    if (seen.has(key)) {
      out.push({ code: 'repeated_search', message: `the search "${search}" was made twice` });
      break;
    }
    seen.add(key);
  }
  return out;
}
