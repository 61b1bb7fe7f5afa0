import { describe, expect, test } from 'vitest';
import { pairCreatedReferences } from './pair-created-references.js';
import type { SkillEdit, SkillPatch } from './skill-patch.js';

const files = new Map([
  ['SKILL.md', '---\nname: demo\ndescription: Demo.\n---\n# Demo\n\n## Code\n'],
  ['references/code.md', '# Code\n'],
]);

const edit = (fields: Partial<SkillEdit> & Pick<SkillEdit, 'op' | 'file'>): SkillEdit => ({
  target_section: undefined,
  target_text: undefined,
  content: undefined,
  old_text: undefined,
  after_section: undefined,
  ...fields,
});

const patch = (...edits: SkillEdit[]): SkillPatch => ({ reasoning: 'r', edits, changelog: 'c' });
const link = (path: string) =>
  edit({
    op: 'append_to_section',
    file: 'SKILL.md',
    target_section: '## Code',
    content: `See [it](${path}).`,
  });
const create = (path: string) => edit({ op: 'create', file: path, content: '# New\n' });

describe('pairCreatedReferences', () => {
  test('should keep a new reference that the same patch links from SKILL.md', () => {
    const result = pairCreatedReferences(
      patch(create('references/units.md'), link('references/units.md')),
      files,
    );
    expect(result.patch.edits).toHaveLength(2);
    expect(result.dropped).toEqual([]);
  });

  test('should drop a new reference nothing links, with the reason', () => {
    const result = pairCreatedReferences(patch(create('references/units.md')), files);
    expect(result.patch.edits).toEqual([]);
    expect(result.dropped).toMatchObject([
      { index: 0, reason: 'creates references/units.md, but no edit of SKILL.md in this patch links it' },
    ]);
  });

  test('should drop a link to a reference that neither exists nor is created', () => {
    const result = pairCreatedReferences(
      patch(link('references/missing.md'), link('references/code.md')),
      files,
    );
    expect(result.patch.edits.map((e) => e.content)).toEqual(['See [it](references/code.md).']);
    expect(result.dropped).toMatchObject([
      { index: 0, reason: 'links references/missing.md, which neither exists nor is created by this patch' },
    ]);
  });

  test('should drop a create whose only link went with an edit dropped for another missing file', () => {
    const both = edit({
      op: 'append_to_section',
      file: 'SKILL.md',
      target_section: '## Code',
      content: '[a](references/a.md) and [b](references/b.md)',
    });
    const result = pairCreatedReferences(patch(create('references/a.md'), both), files);
    expect(result.patch.edits).toEqual([]);
    expect(result.dropped.map((d) => d.index)).toEqual([0, 1]);
  });

  test('should not count a link from another reference as linking a new one', () => {
    const fromReference = edit({
      op: 'append_to_section',
      file: 'references/code.md',
      target_section: '# Code',
      content: 'See [units](units.md).',
    });
    const result = pairCreatedReferences(patch(create('references/units.md'), fromReference), files);
    expect(result.patch.edits).toEqual([]);
    expect(result.dropped.map((d) => d.index)).toEqual([0, 1]);
  });
});
