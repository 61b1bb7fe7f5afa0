import { describe, expect, test } from 'vitest';
import { localLinks } from './markdown-links.js';
import { packagePath } from './package-path.js';

describe('localLinks', () => {
  test('should find inline links, images and definitions, but not URLs, fragments or fenced code', () => {
    const text = [
      'See [math](references/math.md#units) and ![chart](img/c.png "Chart").',
      'Not [web](https://example.com), not [mail](mailto:a@b.c), not [here](#section).',
      '```',
      '[code](references/in-code.md)',
      '```',
      '[def]: <references/def.md>',
      '[spaces](references/with%20space.md)',
    ].join('\n');
    expect(localLinks(text, 10)).toEqual([
      { target: 'references/math.md', line: 10 },
      { target: 'img/c.png', line: 10 },
      { target: 'references/def.md', line: 15 },
      { target: 'references/with space.md', line: 16 },
    ]);
  });
});

describe('packagePath', () => {
  test.each([
    ['references/a.md', '', 'references/a.md'],
    ['./references/../references/a.md', '', 'references/a.md'],
    ['a.md', 'references', 'references/a.md'],
    ['../SKILL.md', 'references', 'SKILL.md'],
    ['../x.md', '', undefined],
    ['references/../../x.md', '', undefined],
    ['/etc/passwd', '', undefined],
    ['C:\\x.md', '', undefined],
  ])('should resolve %s from "%s" to %s', (target, from, path) => {
    expect(packagePath(target, from)).toBe(path);
  });
});
