import { z } from 'zod';
import { SampleIdSchema } from '../../core/index.js';
import { VisualConstraintsSchema } from './visual-constraints.js';

/** One best-of-N candidate: the policy output, and what is known about it. */
export const EvpvCandidateSchema = z.object({
  /** Tagged text or the JSON form, as text or as an object (see `parsePolicyOutput`). */
  output: z.union([z.string(), z.record(z.string(), z.unknown())]),
  /** Whether the final answer is right; otherwise compared with the problem's `answer`. */
  correct: z.boolean().optional(),
  /** Step judgments already made (+1/−1 per step), for the corruption study. */
  step_scores: z.array(z.union([z.literal(1), z.literal(-1)])).optional(),
});
export type EvpvCandidate = z.output<typeof EvpvCandidateSchema>;

/**
 * One problem: a question about an image and N candidates. The image is a path (relative to the
 * input file), a data URL, an http(s) URL or a symbolic fact dictionary; or `constraints` give
 * the extracted description directly (as `judge evpv --bench-rows` writes them).
 */
export const EvpvProblemSchema = z
  .object({
    id: SampleIdSchema,
    question: z.string(),
    image: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
    constraints: VisualConstraintsSchema.optional(),
    answer: z.union([z.string(), z.number()]).transform(String).optional(),
    candidates: z.array(EvpvCandidateSchema).min(1),
  })
  .refine((p) => p.image !== undefined || p.constraints !== undefined, {
    message: 'a problem needs an "image" or "constraints"',
    path: ['image'],
  });
export type EvpvProblem = z.output<typeof EvpvProblemSchema>;
