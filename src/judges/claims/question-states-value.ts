import { containsMatch } from '../../verify/reference/index.js';
import type { ClaimMode } from './claim.js';

const NUMBERS = /[+-]?\d[\d,]*(?:\.\d+)?/g;
const plainNumber = (text: string) => Number(text.replace(/[%kKwW,\s]/g, ''));

/**
 * Whether a Proposer question gives its own answer away ("Was revenue 1,200?" for 1200), which
 * would let the Checker echo it instead of finding it in the documents and so break the
 * information asymmetry MARCH relies on.
 */
export function questionStatesValue(mode: ClaimMode, question: string, expected: string): boolean {
  if (mode === 'claims') return containsMatch(question, expected).match;
  const value = plainNumber(expected);
  if (!Number.isFinite(value)) return false;
  return (question.match(NUMBERS) ?? []).some((n) => Number(n.replaceAll(',', '')) === value);
}
