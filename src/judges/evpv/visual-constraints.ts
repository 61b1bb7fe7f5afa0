import { z } from 'zod';

/** What the constraint extractor must return for one image and question. */
export const ConstraintExtractionSchema = z.object({
  caption: z.string().min(1),
  key_facts: z.array(z.string().min(1)).min(3).max(8),
  uncertain: z.array(z.string()),
});

/**
 * The structured description of an image that premises are audited against. Any number of key
 * facts: the extractor gives 3–8, a symbolic image has what it has, and the corruption study drops some.
 */
export const VisualConstraintsSchema = z.object({
  caption: z.string(),
  key_facts: z.array(z.string()),
  uncertain: z.array(z.string()).default([]),
});
export type VisualConstraints = z.output<typeof VisualConstraintsSchema>;
