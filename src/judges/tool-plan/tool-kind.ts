import { z } from 'zod';

/** The five tools an interleaved answer can plan (ATP-Bench). */
export const ToolKindSchema = z.enum([
  'image_search',
  'image_generation',
  'image_editing',
  'code_rendering',
  'image_reference',
]);
export type ToolKind = z.infer<typeof ToolKindSchema>;

/**
 * Names models actually write for each tool. Deliberately absent: bare `code`, `render`, `img`
 * and `image`, which are ordinary HTML or markdown tags and would turn prose into calls.
 */
const ALIASES: Record<ToolKind, readonly string[]> = {
  image_search: [
    'image_search',
    'search',
    'search_image',
    'img_search',
    'image_retrieval',
    'retrieve_image',
    'web_image_search',
  ],
  image_generation: [
    'image_generation',
    'generate',
    'generate_image',
    'image_gen',
    'img_gen',
    'text_to_image',
    't2i',
    'image_generate',
  ],
  image_editing: ['image_editing', 'image_edit', 'edit', 'edit_image', 'img_edit'],
  code_rendering: [
    'code_rendering',
    'code_render',
    'render_code',
    'code_to_image',
    'code2image',
    'code_image',
  ],
  image_reference: [
    'image_reference',
    'image_ref',
    'img_ref',
    'ref_image',
    'reference_image',
    'reference',
    'ref',
    'given_image',
  ],
};

const BY_ALIAS = new Map<string, ToolKind>(
  Object.entries(ALIASES).flatMap(([kind, names]) => names.map((n) => [n, kind as ToolKind] as const)),
);

/** One-word aliases that prose writes in brackets ("[Edit: typo fixed]", "[Ref: p. 3]"). */
const GENERIC = new Set(['search', 'generate', 'edit', 'reference', 'ref']);

/**
 * The tool a placeholder name stands for (case, `-` and spaces ignored), or undefined for any other
 * name. Bracket names must be specific: a one-word alias in brackets is ordinary prose.
 */
export function toolKindOf(name: string, form: 'tag' | 'bracket' = 'tag'): ToolKind | undefined {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (form === 'bracket' && GENERIC.has(key)) return undefined;
  return BY_ALIAS.get(key);
}
