import { z } from 'zod';

/** One labelled preference pair of the evolution's fitness set: `chosen` is the better response. */
export const LabelledPairSchema = z.strictObject({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  prompt: z.string().min(1),
  chosen: z.string().min(1),
  rejected: z.string().min(1),
});
export type LabelledPair = z.output<typeof LabelledPairSchema>;
