import { describe, expect, test } from 'vitest';
import type { SkillEdit } from '../skill-patch.js';
import type { SupportedPatch } from './supported-patch.js';
import { translateAnchors } from './translate-anchors.js';

const SKILL = `---
name: demo
description: Demo.
---
# Demo

## Checks

- Read the task   twice.
- Check the Units.

\`\`\`sh
## not a header
\`\`\`

## Output

- Check the units.
`;

const files = new Map([['SKILL.md', SKILL]]);
const edit = (fields: Partial<SkillEdit>): SkillEdit => ({
  file: 'SKILL.md',
  op: 'insert_after',
  target_section: undefined,
  target_text: undefined,
  content: 'x',
  old_text: undefined,
  after_section: undefined,
  ...fields,
});
const patchOf = (...edits: SkillEdit[]): SupportedPatch => ({
  reasoning: '',
  changelog: '',
  edits: edits.map((e) => ({ edit: e, support: ['t1'] })),
});

describe('translateAnchors', () => {
  test.each([
    ['an exact text', { target_text: '- Check the Units.' }, { target_text: '- Check the Units.' }, 'exact'],
    [
      'text with other whitespace',
      { target_text: 'Read the task twice.' },
      { target_text: 'Read the task   twice.' },
      'whitespace',
    ],
    [
      'a header in another case without its marks',
      { op: 'append_to_section', target_section: 'checks', target_text: undefined },
      { target_section: '## Checks' },
      'case',
    ],
    [
      'a header with other spacing',
      { op: 'append_to_section', target_section: '##   Output ' },
      { target_section: '## Output' },
      'whitespace',
    ],
    [
      'text in another case, scoped by its section',
      { target_section: '## Checks', target_text: 'check the units' },
      { target_section: '## Checks', target_text: 'Check the Units' },
      'case',
    ],
  ] as const)('should rewrite %s to the file text', (_, fields, expected, how) => {
    const got = translateAnchors(files, patchOf(edit(fields)));
    expect(got.dropped).toEqual([]);
    expect(got.patch.edits[0]?.edit).toMatchObject(expected);
    expect(got.matches[how]).toBeGreaterThan(0);
    expect(got.patch.edits[0]?.support).toEqual(['t1']);
  });

  test('should drop and report an anchor found nowhere, or in more than one place', () => {
    const got = translateAnchors(
      files,
      patchOf(
        edit({ target_text: 'Never written' }),
        edit({ target_text: 'check the units' }),
        edit({ op: 'append_to_section', target_section: '## not a header' }),
        edit({ target_text: '- Check the Units.' }),
      ),
    );
    expect(got.dropped.map((d) => [d.index, d.field, d.cause])).toEqual([
      [0, 'target_text', 'anchor_not_found'],
      [1, 'target_text', 'ambiguous_anchor'],
      [2, 'target_section', 'anchor_not_found'],
    ]);
    expect(got.patch.edits).toHaveLength(1);
  });

  test('should translate an edit against the text an earlier edit of the patch added', () => {
    const got = translateAnchors(
      files,
      patchOf(
        edit({ op: 'add_section', content: '## Units\n\n- SI only.' }),
        edit({ op: 'append_to_section', target_section: 'units', content: '- km, not miles.' }),
      ),
    );
    expect(got.dropped).toEqual([]);
    expect(got.patch.edits[1]?.edit.target_section).toBe('## Units');
  });
});
