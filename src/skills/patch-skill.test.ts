import { describe, expect, test } from 'vitest';
import { patchSkill } from './patch-skill.js';
import type { SkillEdit } from './skill-patch.js';

const files = new Map([
  ['SKILL.md', '---\nname: demo\ndescription: Demo.\n---\n# Demo\n\n## Code\n\nRun tests.\n'],
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

describe('patchSkill', () => {
  test('should pair, apply and validate, reporting every edit by its index in the patch', () => {
    const report = patchSkill(files, {
      reasoning: 'r',
      changelog: 'c',
      edits: [
        edit({ op: 'create', file: 'references/orphan.md', content: '# Orphan' }),
        edit({ op: 'append_to_section', target_section: '## Math', content: 'x' }),
        edit({ op: 'create', file: 'references/units.md', content: '# Units' }),
        edit({
          op: 'append_to_section',
          target_section: '## Code',
          content: 'See [units](references/units.md).',
        }),
      ],
    });
    expect(report.applied).toBe(2);
    expect(report.dropped.map((d) => d.index)).toEqual([0]);
    expect(report.skipped.map((s) => [s.index, s.cause])).toEqual([[1, 'anchor_not_found']]);
    expect(report.result).toMatchObject({
      ok: true,
      skill: { references: [{ path: 'references/units.md' }] },
    });
    expect(files.get('SKILL.md')).not.toContain('units');
  });

  test('should hand back the validator violations of an edited skill that breaks a rule', () => {
    const report = patchSkill(files, {
      reasoning: 'r',
      changelog: 'c',
      edits: [edit({ op: 'append_to_section', target_section: '## Code', content: 'line\n'.repeat(500) })],
    });
    expect(report.result).toMatchObject({ ok: false, violations: [{ code: 'body_too_long' }] });
  });
});
