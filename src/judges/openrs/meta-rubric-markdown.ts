import { RewardKitError } from '../../core/index.js';
import { type MetaRubric, parseMetaRubric } from './meta-rubric.js';

const block = (heading: string, body: string) => (body === '' ? [heading] : [heading, '', body]);

type Section = MetaRubric['sections'][number];

/** A `##` section's text under its heading: the body and its `###` subsections, as written. */
export function metaRubricSectionText(section: Section): string {
  return [
    ...(section.body === '' ? [] : [section.body]),
    ...section.subsections.map((sub) => block(`### ${sub.heading}`, sub.body).join('\n')),
  ].join('\n\n');
}

/**
 * A meta-rubric as markdown in the layout `parseMetaRubric` reads: the title, the preamble, then
 * each `##` section with its body and `###` subsections, one blank line between blocks. For a
 * meta-rubric that came from this function, `parseMetaRubric(renderMetaRubric(m), m.file)` gives
 * `m` back.
 */
export function renderMetaRubric(metaRubric: Omit<MetaRubric, 'text' | 'file'>): string {
  const parts = [
    block(`# ${metaRubric.title}`, metaRubric.preamble),
    ...metaRubric.sections.map((s) => block(`## ${s.heading}`, metaRubricSectionText(s))),
  ];
  return `${parts.map((p) => p.join('\n')).join('\n\n')}\n`;
}

/**
 * The meta-rubric with the `##` section `heading` rewritten: `text` is the new body, which may
 * hold `###` subsections but no `#` or `##` heading (those would change the document's shape).
 * The result is parsed as a whole, so a section that breaks the schema (a lost hard-flaw
 * dimension) is an error naming `file`, the line and the section.
 */
export function replaceMetaRubricSection(
  metaRubric: MetaRubric,
  heading: string,
  text: string,
  file: string,
): MetaRubric {
  const at = metaRubric.sections.findIndex((s) => s.heading.toLowerCase() === heading.toLowerCase());
  if (at < 0) {
    throw new RewardKitError(
      'RK_USAGE',
      `${file}: the meta-rubric has no "## ${heading}" section (it has: ${metaRubric.sections.map((s) => s.heading).join(', ')})`,
    );
  }
  const stray = text.split(/\r?\n/).findIndex((line) => /^#{1,2}\s/.test(line));
  if (stray >= 0) {
    throw new RewardKitError(
      'RK_INPUT_SCHEMA',
      `${file}: section "${heading}" line ${stray + 1}: a section body may hold "###" subsections only, not "#" or "##" headings`,
    );
  }
  const sections = metaRubric.sections.map((s, i) =>
    i === at ? { heading: s.heading, line: 0, body: text.trim(), subsections: [] } : s,
  );
  // Rendered with the new body as plain text, so its `###` lines become subsections when parsed.
  return parseMetaRubric(renderMetaRubric({ ...metaRubric, sections }), file);
}
