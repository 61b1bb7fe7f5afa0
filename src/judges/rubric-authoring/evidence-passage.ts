import { z } from 'zod';
import type { RetrievedDoc } from '../../retrieval/index.js';

/** A retrieved passage as the authoring models saw it: cited by `ref` (E1, E2, ...), kept for review. */
export const EvidencePassageSchema = z.object({
  ref: z.string().regex(/^E\d+$/),
  /** The corpus id, when the retriever reports one. */
  id: z.string().optional(),
  score: z.number(),
  text: z.string(),
});
export type EvidencePassage = z.infer<typeof EvidencePassageSchema>;

/** The retriever's documents, best first, numbered E1.. in that order. */
export function evidencePassages(docs: readonly RetrievedDoc[]): EvidencePassage[] {
  return docs.map((doc, i) => ({
    ref: `E${i + 1}`,
    ...(doc.id !== undefined && { id: doc.id }),
    score: doc.score,
    text: doc.contents,
  }));
}

/** Each passage as its own untrusted block, after the answers (see `answersMessage`). */
export function evidenceBlocks(passages: readonly EvidencePassage[]) {
  return passages.map((p) => ({ label: `Evidence ${p.ref}`, tag: `evidence-${p.ref}`, text: p.text }));
}
