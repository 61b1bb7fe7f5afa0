import { z } from 'zod';

/**
 * A corpus line: `{id, contents}` (first line of `contents` = title, as in the Search-R1 corpora)
 * or `{id, title, text}`, which becomes `title + "\n" + text`.
 */
export const CorpusRowSchema = z
  .object({
    id: z.union([z.string().min(1), z.number().int()]),
    contents: z.string().optional(),
    title: z.string().optional(),
    text: z.string().optional(),
  })
  .transform((row, ctx) => {
    const id = String(row.id);
    if (row.contents !== undefined) return { id, contents: row.contents };
    if (row.text !== undefined) return { id, contents: `${row.title ?? ''}\n${row.text}` };
    ctx.addIssue({ code: 'custom', message: 'needs "contents", or "title" and "text"', path: ['contents'] });
    return z.NEVER;
  });
