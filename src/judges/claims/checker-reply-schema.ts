import { z } from 'zod';

// Numbers are accepted as JSON numbers too; `readCheckerReply` reads both as text. No transforms:
// the schema is also sent to the backend as JSON Schema.
const text = z.union([z.string(), z.number()]);

/**
 * What a Checker run must return. Ids are free text here on purpose: a skipped, renumbered or
 * repeated item is not a reason to re-ask, it is that run's answer, read by `readCheckerReply`.
 */
export const CheckerReplySchema = z.object({
  items: z.array(z.object({ id: text, evidence: z.string(), answer: text })),
});
export type CheckerReply = z.infer<typeof CheckerReplySchema>;
