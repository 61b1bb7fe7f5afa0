import { z } from 'zod';

/** A line of the seeds file: the answer to build a question for, and other accepted forms of it. */
export const SspSeedRowSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  answer: z.string().trim().min(1),
  aliases: z.array(z.string()).optional(),
  /** Searches asked of the proposer for this seed (default: the run's). */
  searches: z.number().int().min(1).optional(),
});
