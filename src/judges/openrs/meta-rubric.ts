import { z } from 'zod';
import {
  type OutlineSection,
  parseMarkdownOutline,
  readMarkdownFile,
  throwMarkdownIssues,
} from './markdown-outline.js';

/** The sections every meta-rubric must have, by heading (case-insensitive). */
export const META_RUBRIC_SECTIONS = ['Ideal answer', 'Hard flaws', 'Comparison protocol'] as const;
/** The `###` headings the Hard flaws section must have: the only dimensions a hard flaw may take. */
export const HARD_FLAW_HEADINGS = ['Factuality', 'Harmfulness', 'Response alignment'] as const;

const SectionSchema = z.object({
  heading: z.string(),
  line: z.number(),
  body: z.string(),
  subsections: z.array(z.object({ heading: z.string(), line: z.number(), body: z.string() })),
});

const named = (sections: readonly { heading: string }[], name: string) =>
  sections.findIndex((s) => s.heading.toLowerCase() === name.toLowerCase());

/** The parsed meta-rubric: its text goes to the judge whole; the structure is checked on load. */
export const MetaRubricSchema = z
  .object({
    title: z.string({ error: 'the file must start with a "# Title" heading' }).min(1),
    /** The text between the title and the first section. */
    preamble: z.string(),
    sections: z.array(SectionSchema),
    text: z.string(),
  })
  .superRefine((doc, ctx) => {
    for (const name of META_RUBRIC_SECTIONS) {
      const at = named(doc.sections, name);
      if (at < 0) {
        ctx.addIssue({ code: 'custom', path: ['sections'], message: `missing the "## ${name}" section` });
        continue;
      }
      const found = doc.sections[at] as z.infer<typeof SectionSchema>;
      if (found.body === '' && found.subsections.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['sections', at, 'body'], message: `"## ${name}" is empty` });
      }
    }
    const flaws = named(doc.sections, 'Hard flaws');
    if (flaws < 0) return;
    const subsections = (doc.sections[flaws] as z.infer<typeof SectionSchema>).subsections;
    for (const name of HARD_FLAW_HEADINGS) {
      const at = named(subsections, name);
      if (at < 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['sections', flaws, 'subsections'],
          message: `"## Hard flaws" is missing the "### ${name}" dimension`,
        });
      } else if ((subsections[at] as { body: string }).body === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['sections', flaws, 'subsections', at, 'body'],
          message: `"### ${name}" lists no sub-types`,
        });
      }
    }
  });
export type MetaRubric = z.infer<typeof MetaRubricSchema> & { file: string };

/** Reads a meta-rubric from markdown text; `file` names it in errors (`file:line: …`). */
export function parseMetaRubric(text: string, file: string): MetaRubric {
  const outline = parseMarkdownOutline(text);
  const strip = (s: OutlineSection) => ({
    heading: s.heading,
    line: s.line,
    body: s.body,
    subsections: s.subsections.map((sub) => ({ heading: sub.heading, line: sub.line, body: sub.body })),
  });
  const doc = {
    title: outline.title?.text,
    preamble: outline.preamble.body,
    sections: outline.sections.map(strip),
    text: text.trim(),
  };
  const parsed = MetaRubricSchema.safeParse(doc);
  if (!parsed.success) {
    const lastLine = text.trimEnd().split(/\r?\n/).length;
    throwMarkdownIssues(file, 'meta-rubric', parsed.error.issues, (path) => {
      // The deepest section the path names; a missing section is reported at the end of the file.
      const [, top, , sub] = path;
      const section = typeof top === 'number' ? doc.sections[top] : undefined;
      const subsection = typeof sub === 'number' ? section?.subsections[sub] : undefined;
      if (path[0] === 'title') return 1;
      return subsection?.line ?? section?.line ?? lastLine;
    });
  }
  return { ...parsed.data, file };
}

/** Reads a meta-rubric markdown file. */
export function loadMetaRubric(path: string): MetaRubric {
  return parseMetaRubric(readMarkdownFile(path, 'meta-rubric'), path);
}
