import { z } from 'zod';
import { MedicalRubricSchema } from '../medical/medical-rubric.js';
import { EvidencePassageSchema } from './evidence-passage.js';

/** One point of a query's aggregated checklist, with what was counted and checked about it. */
export const ChecklistItemSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** Fraction of the answers that state the point, counted from the extraction. */
  support: z.number().min(0).max(1),
  stated_by: z.array(z.string()),
  contradicted_by: z.array(z.string()),
  correct: z.enum(['yes', 'no', 'uncertain']),
  reference: z.enum(['agrees', 'contradicts', 'not_covered']).optional(),
  /** How the retrieved passages bear on the point, and which ones (when evidence was retrieved). */
  evidence: z.enum(['supports', 'contradicts', 'not_covered']).optional(),
  cites: z.array(z.string()).optional(),
  /** False when consensus left the point out of what the writer saw (see `keptByConsensus`). */
  kept: z.boolean().optional(),
  note: z.string(),
});
export type ChecklistItem = z.infer<typeof ChecklistItemSchema>;

/** A step that failed for a query: which step, which model, why, and the raw output when there was one. */
export const AuthoringFailureSchema = z.object({
  step: z.enum(['retrieval', 'answer', 'checklist', 'cross_verification', 'write']),
  model: z.string(),
  reason: z.string(),
  raw: z.string().nullable().optional(),
});
export type AuthoringFailure = z.infer<typeof AuthoringFailureSchema>;

/** How a rubric came to be: the evidence a reviewer needs to trust or fix it. */
export const AuthoringNotesSchema = z.object({
  /** Mean pairwise overlap of the answers' key points; null when it cannot be measured. */
  agreement: z.number().nullable(),
  threshold: z.number(),
  needs_review: z.boolean(),
  review_reasons: z.array(z.object({ code: z.string(), message: z.string() })),
  answers: z.array(
    z.object({
      model: z.string(),
      status: z.enum(['ok', 'failed']),
      answer: z.string().optional(),
      truncated: z.boolean().optional(),
      reason: z.string().optional(),
    }),
  ),
  checklist: z.array(ChecklistItemSchema),
  /** The passages retrieved for the query and given to the cross-check and the writer, with the retriever's name. */
  evidence: z.object({ retriever: z.string(), passages: z.array(EvidencePassageSchema) }).optional(),
  /** The share of answers a key point needed to reach the writer, unless evidence supported it. */
  min_support: z.number().optional(),
  failures: z.array(AuthoringFailureSchema),
  calls: z.number().int(),
  tokens: z.number().int(),
});
export type AuthoringNotes = z.infer<typeof AuthoringNotesSchema>;

/**
 * One line of `rubrics generate` output, keyed by query id: a rubric with its authoring notes, or
 * a failure with its reason (never dropped, so a rerun's resume sees the id).
 */
export const RubricRecordSchema = z.discriminatedUnion('status', [
  z.object({
    id: z.string(),
    status: z.literal('ok'),
    rubric: MedicalRubricSchema,
    authoring: AuthoringNotesSchema,
  }),
  z.object({
    id: z.string(),
    status: z.literal('failed'),
    error: z.string(),
    authoring: AuthoringNotesSchema.partial().optional(),
  }),
]);
export type RubricRecord = z.infer<typeof RubricRecordSchema>;
