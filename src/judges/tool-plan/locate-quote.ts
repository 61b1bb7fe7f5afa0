import { escapeRegExp } from '../../core/index.js';

/**
 * Where a judge's quote of the answer ends in the answer: exact first, then ignoring case and
 * differences in whitespace (judges re-flow text). "" is the very start; null when not found.
 */
export function locateQuote(text: string, quote: string): number | null {
  const q = quote.trim();
  if (q === '') return 0;
  const exact = text.indexOf(q);
  if (exact >= 0) return exact + q.length;
  const words = q.split(/\s+/).map(escapeRegExp);
  const loose = new RegExp(words.join('\\s+'), 'i').exec(text);
  return loose ? loose.index + loose[0].length : null;
}
