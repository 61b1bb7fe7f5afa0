import { describe, expect, test } from 'vitest';
import { applySkillPatch } from './apply-skill-patch.js';
import type { SkillEdit, SkillPatch } from './skill-patch.js';

const SKILL = [
  '---',
  'name: demo',
  'description: Demo.',
  '---',
  '# Demo',
  '',
  '## Math',
  '',
  'Check the final answer.',
  '',
  '```sh',
  '# not a header: a shell comment',
  '## still code',
  '```',
  '',
  '~~~',
  '# also code',
  '~~~',
  '',
  '### Units',
  '',
  'Units matter.',
  '',
  '## Code',
  '',
  'Run the tests.',
  '',
].join('\n');

const files = () =>
  new Map([
    ['SKILL.md', SKILL],
    ['references/code.md', '# Code\n\nTests first.\n'],
  ]);

const edit = (fields: Partial<SkillEdit> & Pick<SkillEdit, 'op'>): SkillEdit => ({
  file: 'SKILL.md',
  target_section: undefined,
  target_text: undefined,
  content: undefined,
  old_text: undefined,
  after_section: undefined,
  ...fields,
});

const patch = (...edits: SkillEdit[]): SkillPatch => ({ reasoning: 'r', edits, changelog: 'c' });

const skillOf = (result: ReturnType<typeof applySkillPatch>) => result.files.get('SKILL.md') as string;

describe('applySkillPatch sections', () => {
  test('should delete a section up to the next header of the same level, skipping # lines in fences', () => {
    const result = applySkillPatch(files(), patch(edit({ op: 'delete_section', target_section: '## Math' })));
    expect(result).toMatchObject({ applied: 1, skipped: [] });
    const text = skillOf(result);
    expect(text).not.toMatch(/Check the final answer|not a header|Units matter/);
    expect(text).toContain('# Demo\n\n## Code\n\nRun the tests.');
  });

  test('should end a deeper section at a header of the same or higher level only', () => {
    const result = applySkillPatch(
      files(),
      patch(edit({ op: 'delete_section', target_section: '### Units' })),
    );
    const text = skillOf(result);
    expect(text).not.toContain('Units matter');
    expect(text).toContain('# also code\n~~~\n\n## Code');
  });

  test('should not take a # line inside a fence as a section anchor', () => {
    const result = applySkillPatch(
      files(),
      patch(edit({ op: 'append_to_section', target_section: '## still code', content: 'x' })),
    );
    expect(result.applied).toBe(0);
    expect(result.skipped).toMatchObject([{ index: 0, cause: 'anchor_not_found' }]);
    expect(skillOf(result)).toBe(SKILL);
  });

  test('should append to a section after its subsections and before the next header', () => {
    const result = applySkillPatch(
      files(),
      patch(edit({ op: 'append_to_section', target_section: '## Math', content: 'Simplify fractions.' })),
    );
    expect(skillOf(result)).toContain('Units matter.\nSimplify fractions.\n\n## Code');
  });

  test('should add a section after a named one, or at the end of the file', () => {
    const after = applySkillPatch(
      files(),
      patch(
        edit({
          op: 'add_section',
          after_section: '## Math',
          content: '## Writing\n\nLength is not quality.',
        }),
      ),
    );
    expect(skillOf(after)).toContain('Units matter.\n\n## Writing\n\nLength is not quality.\n\n## Code');
    const end = applySkillPatch(
      files(),
      patch(edit({ op: 'add_section', content: '## RAG\n\nGround claims.\n' })),
    );
    expect(skillOf(end)).toMatch(/Run the tests\.\n\n## RAG\n\nGround claims\.\n$/);
  });

  test('should refuse a new section without a header or one that exists', () => {
    const result = applySkillPatch(
      files(),
      patch(
        edit({ op: 'add_section', content: 'no header' }),
        edit({ op: 'add_section', content: '## Code\n\nagain' }),
      ),
    );
    expect(result.skipped.map((s) => s.cause)).toEqual(['missing_field', 'section_exists']);
  });

  test('should replace text inside the section only, and skip when old_text is not there', () => {
    const result = applySkillPatch(
      files(),
      patch(
        edit({
          op: 'replace_in_section',
          target_section: '## Code',
          old_text: 'Run the tests.',
          content: 'Run every test.',
        }),
        edit({
          op: 'replace_in_section',
          target_section: '## Code',
          old_text: 'Check the final answer.',
          content: 'x',
        }),
      ),
    );
    expect(result.applied).toBe(1);
    expect(result.skipped).toMatchObject([
      {
        index: 1,
        cause: 'anchor_not_found',
        reason: 'old_text "Check the final answer." in "## Code" not found',
      },
    ]);
    expect(skillOf(result)).toContain('## Code\n\nRun every test.');
    expect(skillOf(result)).toContain('Check the final answer.');
  });

  test('should insert before and after an exact text, scoped to a section when given', () => {
    const result = applySkillPatch(
      files(),
      patch(
        edit({ op: 'insert_after', target_text: 'Run the tests.', content: 'Then read the code.' }),
        edit({
          op: 'insert_before',
          target_section: '## Math',
          target_text: 'Check the final',
          content: 'First:',
        }),
      ),
    );
    expect(result.applied).toBe(2);
    expect(skillOf(result)).toContain('Run the tests.\nThen read the code.');
    expect(skillOf(result)).toContain('## Math\n\nFirst:\nCheck the final answer.');
  });

  test('should skip an anchor that occurs more than once in its scope', () => {
    const result = applySkillPatch(
      files(),
      patch(edit({ op: 'insert_after', target_text: 'code', content: 'x' })),
    );
    expect(result.skipped).toMatchObject([{ cause: 'ambiguous_anchor' }]);
  });
});

describe('applySkillPatch files', () => {
  test('should never edit a protected file or folder, and count each refusal', () => {
    const result = applySkillPatch(
      files(),
      patch(
        edit({ op: 'append_to_section', file: 'references/code.md', target_section: '# Code', content: 'x' }),
        edit({ op: 'delete_file', file: 'references/code.md' }),
        edit({ op: 'append_to_section', target_section: '## Code', content: 'kept' }),
      ),
      { protect: ['references/'] },
    );
    expect(result.applied).toBe(1);
    expect(result.skipped.map((s) => [s.index, s.cause])).toEqual([
      [0, 'protected'],
      [1, 'protected'],
    ]);
    expect(result.files.get('references/code.md')).toBe('# Code\n\nTests first.\n');
  });

  test('should create and delete files, refusing paths outside the package and deleting SKILL.md', () => {
    const result = applySkillPatch(
      files(),
      patch(
        edit({ op: 'create', file: 'references/new.md', content: '# New' }),
        edit({ op: 'create', file: 'references/code.md', content: '# Twice' }),
        edit({ op: 'create', file: '../escape.md', content: 'x' }),
        edit({ op: 'delete_file', file: 'references/code.md' }),
        edit({ op: 'delete_file', file: 'SKILL.md' }),
        edit({ op: 'append_to_section', file: 'references/gone.md', target_section: '# X', content: 'x' }),
      ),
    );
    expect(result.files.get('references/new.md')).toBe('# New\n');
    expect(result.files.has('references/code.md')).toBe(false);
    expect(result.skipped.map((s) => [s.index, s.cause])).toEqual([
      [1, 'file_exists'],
      [2, 'bad_path'],
      [4, 'protected'],
      [5, 'file_not_found'],
    ]);
  });

  test('should leave the files it was given unchanged', () => {
    const source = files();
    const before = new Map(source);
    applySkillPatch(
      source,
      patch(
        edit({ op: 'delete_section', target_section: '## Math' }),
        edit({ op: 'delete_file', file: 'references/code.md' }),
      ),
    );
    expect(source).toEqual(before);
  });

  test('should skip an edit without the field its op needs', () => {
    const result = applySkillPatch(files(), patch(edit({ op: 'append_to_section', content: 'x' })));
    expect(result.skipped).toMatchObject([
      { cause: 'missing_field', reason: 'the op needs "target_section"' },
    ]);
  });
});
