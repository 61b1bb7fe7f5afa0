import { describe, expect, test } from 'vitest';
import { parseSkillPatch } from './parse-skill-patch.js';

describe('parseSkillPatch', () => {
  test('should read a patch whose edits carry null for the fields their op does not use', () => {
    const text = JSON.stringify({
      reasoning: 'Two failures missed units.',
      edits: [
        {
          file: 'SKILL.md',
          op: 'append_to_section',
          target_section: '## Math',
          target_text: null,
          content: 'Check units.',
          old_text: null,
          after_section: null,
        },
      ],
      changelog: 'Math: check units.',
    });
    const parsed = parseSkillPatch(text);
    expect(parsed).toMatchObject({
      ok: true,
      patch: { edits: [{ op: 'append_to_section', target_text: undefined }] },
    });
  });

  test.each([
    ['{"reasoning": "r", "edits": [', /^malformed JSON: /],
    [
      '{"reasoning": "r", "edits": [{"file": "SKILL.md", "op": "rename"}], "changelog": ""}',
      /^not a patch: edits\.0\.op/,
    ],
    ['{"edits": []}', /^not a patch: .*reasoning/],
  ])('should drop %s whole, with the reason', (text, reason) => {
    const parsed = parseSkillPatch(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });
});
