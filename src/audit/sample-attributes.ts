import { biasAttributes, pairAttributes } from './bias-attributes.js';

/** A response's bias attributes as numbers (flags as 0/1), named as audit.json names them. */
export function sampleAttributes(response: string): Record<string, number | null> {
  const a = biasAttributes(response);
  return {
    tokens: a.tokens,
    chars: a.chars,
    format_density: a.formatDensity,
    list_items: a.listItems,
    headers: a.headers,
    sycophantic_opener: a.sycophanticOpener ? 1 : 0,
    hedging: a.hedging ? 1 : 0,
    stated_confidence: a.statedConfidence,
  };
}

/**
 * A judged pair's attributes: where the better answer stood (0 first, 1 second) and how much longer
 * it is than the other (chosen − rejected), so a judge that prefers the first or the longer answer
 * shows as an association with picking the better one.
 */
export function pairAuditAttributes(
  chosen: string,
  rejected: string,
  position: 0 | 1,
): Record<string, number | null> {
  const a = pairAttributes(chosen, rejected, position);
  return {
    position: a.position,
    length_diff_chars: a.lengthDiffChars,
    length_diff_tokens: a.lengthDiffTokens,
  };
}
