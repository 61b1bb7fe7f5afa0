import { z } from 'zod';

const note = z.string().max(2000).optional();

/** The body of `PUT …/samples/:sample/label`: a verdict or a score in [0, 1], with an optional note. */
export const LabelBodySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.enum(['correct', 'incorrect']), note }),
  z.strictObject({ kind: z.literal('score'), score: z.number().min(0).max(1), note }),
]);
