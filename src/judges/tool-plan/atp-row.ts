import { z } from 'zod';
import { SampleIdSchema } from '../../core/index.js';

/** The eight ATP-Bench categories. */
export const AtpCategorySchema = z.enum([
  'academic',
  'manual',
  'recipe',
  'fashion',
  'renovation',
  'product',
  'travel',
  'encyclopedia',
]);
export type AtpCategory = z.infer<typeof AtpCategorySchema>;

/** An image given with the query: the user's own (`image_query`) or one of the document's (`images`). */
export interface GivenImage {
  source: 'user' | 'document';
  /** Path or URL as the row gives it. */
  ref: string;
  caption?: string;
}

const texts = z
  .union([z.string(), z.array(z.string())])
  .nullish()
  .transform((v) => (v == null ? [] : (Array.isArray(v) ? v : [v]).filter((s) => s.trim() !== '')));

const ImageEntrySchema = z.union([
  z.string().min(1),
  z
    .object({
      path: z.string().min(1).optional(),
      url: z.string().min(1).optional(),
      caption: z.string().optional(),
      description: z.string().optional(),
    })
    .refine((o) => o.path !== undefined || o.url !== undefined, 'an image object needs "path" or "url"'),
]);

/**
 * An ATP-Bench row `{id, query, image_query, doc, images, gt}` (the published files key rows by
 * `trace_id`, accepted for `id`) plus the `response` under judgment, and the `category` (one of
 * the eight) and `intent` it is reported under. `gt` is kept but never shown to the judge: the
 * judge is reference-free.
 */
export const AtpRowSchema = z
  .object({
    id: SampleIdSchema.optional(),
    trace_id: SampleIdSchema.optional(),
    query: z.string().min(1),
    image_query: texts,
    doc: texts,
    images: z.array(ImageEntrySchema).nullish(),
    gt: z.unknown().optional(),
    response: z.string(),
    category: z
      .string()
      .transform((s) => s.trim().toLowerCase())
      .pipe(AtpCategorySchema)
      .optional(),
    intent: z.string().trim().min(1).optional(),
  })
  .transform((row, ctx) => {
    const id = row.id ?? row.trace_id;
    if (id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'needs "id" (or "trace_id")' });
      return z.NEVER;
    }
    const images: GivenImage[] = [
      ...row.image_query.map((ref) => ({ source: 'user' as const, ref })),
      ...(row.images ?? []).map((entry): GivenImage => {
        if (typeof entry === 'string') return { source: 'document', ref: entry };
        const caption = entry.caption ?? entry.description;
        return {
          source: 'document',
          ref: (entry.path ?? entry.url) as string,
          ...(caption !== undefined && { caption }),
        };
      }),
    ];
    return {
      id,
      query: row.query,
      doc: row.doc,
      images,
      response: row.response,
      ...(row.category !== undefined && { category: row.category }),
      ...(row.intent !== undefined && { intent: row.intent }),
      ...(row.gt !== undefined && { gt: row.gt }),
    };
  });
export type AtpRow = z.output<typeof AtpRowSchema>;
