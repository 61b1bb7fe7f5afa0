import { z } from 'zod';
import type { VisualConstraints } from './visual-constraints.js';

/**
 * A symbolic "image": the facts a picture would show, as a dictionary. Numbers are counts,
 * booleans presence, relation words (`left of`, `above`, …) spatial relations, other strings
 * attributes. It lets everything but the model calls run without pixels.
 */
export const SymbolicImageSchema = z.strictObject({
  caption: z.string().optional(),
  facts: z.record(z.string().min(1), z.union([z.number(), z.string(), z.boolean()])),
  uncertain: z.array(z.string()).optional(),
});
export type SymbolicImage = z.output<typeof SymbolicImageSchema>;

/** One fact as the audit reads it: `key: value`. */
export const factLine = (key: string, value: number | string | boolean): string => `${key}: ${String(value)}`;

/** The deterministic extractor for symbolic images: every fact becomes a `key: value` key fact. */
export function symbolicConstraints(image: SymbolicImage): VisualConstraints {
  const facts = Object.entries(image.facts);
  return {
    caption: image.caption ?? `An image showing ${facts.length} fact(s).`,
    key_facts: facts.map(([key, value]) => factLine(key, value)),
    uncertain: image.uncertain ?? [],
  };
}
