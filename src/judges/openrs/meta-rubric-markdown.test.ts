import { describe, expect, test } from 'vitest';
import { loadMetaRubric, parseMetaRubric } from './meta-rubric.js';
import { metaRubricSectionText, renderMetaRubric, replaceMetaRubricSection } from './meta-rubric-markdown.js';
import { DEFAULT_META_RUBRIC } from './openrs-files.js';

const shipped = loadMetaRubric(DEFAULT_META_RUBRIC);
const content = (m: ReturnType<typeof loadMetaRubric>) => ({
  title: m.title,
  preamble: m.preamble,
  sections: m.sections.map((s) => ({
    heading: s.heading,
    body: s.body,
    subsections: s.subsections.map((sub) => [sub.heading, sub.body]),
  })),
});

describe('meta-rubric markdown', () => {
  test('should round-trip: parse(render(x)) equals x, and rendering keeps every section of the shipped file', () => {
    const x = parseMetaRubric(renderMetaRubric(shipped), 'x.md');
    expect(content(x)).toEqual(content(shipped));
    expect(parseMetaRubric(renderMetaRubric(x), 'x.md')).toEqual(x);
    expect(renderMetaRubric(x)).toBe(`${x.text}\n`);
  });

  test('should replace one section, turning its "###" lines into subsections, and leave the others alone', () => {
    const flaws = shipped.sections.find((s) => s.heading === 'Hard flaws');
    const edited = `${metaRubricSectionText(flaws as never)}\n- An added sub-type.`;
    const next = replaceMetaRubricSection(shipped, 'hard flaws', edited, 'v.md');
    const after = next.sections.find((s) => s.heading === 'Hard flaws');
    expect(after?.subsections.map((s) => s.heading)).toEqual(flaws?.subsections.map((s) => s.heading));
    expect(after?.subsections.at(-1)?.body).toMatch(/An added sub-type\.$/);
    expect(content(next).sections.filter((s) => s.heading !== 'Hard flaws')).toEqual(
      content(shipped).sections.filter((s) => s.heading !== 'Hard flaws'),
    );
  });

  test.each([
    ['Style', 'text', /has no "## Style" section/],
    ['Ideal answer', 'ok\n## Sneaky\nmore', /v\.md: section "Ideal answer" line 2: .*"###" subsections only/],
    ['Hard flaws', '### Factuality\n- wrong facts', /v\.md:\d+: .*missing the "### Harmfulness" dimension/],
  ])('should refuse to rewrite %s into a broken document', (heading, text, error) => {
    expect(() => replaceMetaRubricSection(shipped, heading, text, 'v.md')).toThrow(error);
  });
});
