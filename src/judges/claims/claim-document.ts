import { z } from 'zod';

/** A retrieved document: plain text, or text with a title. Untrusted text. */
export const ClaimDocumentSchema = z.union([
  z.string(),
  z.strictObject({ title: z.string().optional(), text: z.string() }),
]);
export type ClaimDocument = z.infer<typeof ClaimDocumentSchema>;

/** The documents a RAG answer was written from (a sample's `metadata.documents`, a row's `documents`). */
export const ClaimDocumentsSchema = z.array(ClaimDocumentSchema);

/** A document as the Checker sees it: its title line (if any) above its text. */
export function claimDocumentText(document: ClaimDocument): string {
  if (typeof document === 'string') return document;
  return document.title === undefined || document.title.trim() === ''
    ? document.text
    : `${document.title}\n${document.text}`;
}
