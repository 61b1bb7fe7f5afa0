import { describe, expect, test } from 'vitest';
import { findSection, markdownHeaders } from './markdown-sections.js';

const lines = (text: string) => text.split('\n');

describe('markdownHeaders', () => {
  test('should skip # lines in ``` and ~~~ fences, closed only by the same character at least as long', () => {
    const text = [
      '# One', // 0
      '````md', // 1
      '```', // 2: too short to close a four-backtick fence
      '# inside', // 3
      '````', // 4
      '~~~', // 5
      '```', // 6: a backtick line does not close a tilde fence
      '## inside too', // 7
      '~~~', // 8
      '## Two', // 9
      '#hashtag, not a header', // 10
      '    ### Three (indented code, not a header)', // 11
      '   ### Three', // 12
    ].join('\n');
    expect(markdownHeaders(lines(text)).map((h) => [h.index, h.level, h.line])).toEqual([
      [0, 1, '# One'],
      [9, 2, '## Two'],
      [12, 3, '### Three'],
    ]);
  });
});

describe('findSection', () => {
  const doc = lines('# T\n## A\na\n### A.1\nx\n## B\nb\n# U\nu');

  test.each([
    ['## A', 1, 5],
    ['### A.1', 3, 5],
    ['## B', 5, 7],
    ['# T', 0, 7],
    ['# U', 7, 9],
  ])(
    'should run %s from its header to the next header of the same or a higher level',
    (header, start, end) => {
      expect(findSection(doc, header)).toEqual({ found: true, start, end });
    },
  );

  test('should say when a header is missing or not unique', () => {
    expect(findSection(doc, '## C')).toEqual({ found: false, reason: 'anchor_not_found' });
    expect(findSection(lines('## A\n## A'), '## A')).toEqual({ found: false, reason: 'ambiguous_anchor' });
  });
});
