import type { ChecklistItem } from './rubric-record.js';

/**
 * Multi-model consensus with evidence: whether a key point reaches the writer. A point stated by at
 * least `minSupport` of the answers is kept; a minority point is kept only when a retrieved passage
 * supports it (the evidence speaks where the models do not agree). A point judged wrong, or that
 * the evidence contradicts, is kept whatever its support: it is what the pitfalls are written from.
 */
export function keptByConsensus(
  item: Pick<ChecklistItem, 'support' | 'correct' | 'evidence'>,
  minSupport: number,
): boolean {
  if (item.support >= minSupport) return true;
  return item.evidence === 'supports' || item.evidence === 'contradicts' || item.correct === 'no';
}
