import { z } from 'zod';

const text = z.union([z.string(), z.number()]).transform((v) => String(v).trim());

/**
 * What a Checker run must return. Ids are free text here on purpose: a skipped, renumbered or
 * repeated item is not a reason to re-ask, it is that run's answer, read by `readCheckerReply`.
 */
export const CheckerReplySchema = z.object({
  items: z.array(z.object({ id: text, evidence: z.string(), answer: text })),
});
export type CheckerReply = z.infer<typeof CheckerReplySchema>;
