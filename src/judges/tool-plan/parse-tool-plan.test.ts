import { describe, expect, test } from 'vitest';
import { parseToolPlan } from './parse-tool-plan.js';

const callsOf = (text: string, images?: string[]) =>
  parseToolPlan(text, images === undefined ? {} : { images }).calls.map((c) => [c.tool, c.argument, c.form]);
const findingsOf = (text: string, images?: string[]) =>
  parseToolPlan(text, images === undefined ? {} : { images }).findings.map((f) => [f.kind, f.line, f.column]);

describe('parseToolPlan', () => {
  test.each([
    ['canonical tags', 'A <image_search>red panda</image_search> b', [['image_search', 'red panda', 'tag']]],
    [
      'every tool',
      '<image_generation>a cat</image_generation><image_editing source="1">make it blue</image_editing><code_rendering>plot(x)</code_rendering><image_reference>2</image_reference>',
      [
        ['image_generation', 'a cat', 'tag'],
        ['image_editing', 'make it blue', 'tag'],
        ['code_rendering', 'plot(x)', 'tag'],
        ['image_reference', '2', 'tag'],
      ],
    ],
    [
      'aliases, case and dashes',
      '<Image-Search> tower </IMAGE-SEARCH><t2i>sunset</t2i>',
      [
        ['image_search', 'tower', 'tag'],
        ['image_generation', 'sunset', 'tag'],
      ],
    ],
    ['spaces inside the tag', '< image_search >x</ image_search >', [['image_search', 'x', 'tag']]],
    ['void tag with an id', 'See <image_reference id="3"/> here', [['image_reference', '3', 'void_tag']]],
    [
      'unclosed tag carrying its argument',
      "See <image_ref id='2'> and go",
      [['image_reference', '2', 'void_tag']],
    ],
    [
      'reference id wins over a caption body',
      '<image_reference id="1">the floor plan</image_reference>',
      [['image_reference', '1', 'tag']],
    ],
    [
      'argument from a query attribute',
      '<image_search query="eiffel tower"></image_search>',
      [['image_search', 'eiffel tower', 'tag']],
    ],
    [
      'bracket form',
      'Step 1 [image_generation: a bowl of ramen] then',
      [['image_generation', 'a bowl of ramen', 'bracket']],
    ],
    [
      'bracket with nested brackets',
      '[code_rendering: plot([1, 2, 3])]',
      [['code_rendering', 'plot([1, 2, 3])', 'bracket']],
    ],
    ['full-width colon', '[image_search：长城]', [['image_search', '长城', 'bracket']]],
    [
      'multi-line argument',
      '<code_rendering>\nimport x\nplot()\n</code_rendering>',
      [['code_rendering', 'import x\nplot()', 'tag']],
    ],
    ['ordinary HTML is text', 'Use <code>npm</code> and <img src="a.png"> and <b>bold</b>', []],
    ['a markdown link is text', '[search](https://example.com) and [edit] this', []],
    ['one-word aliases in brackets are prose', '[Edit: fixed a typo] [Ref: page 3] [Search: see below]', []],
    [
      'one-word aliases as tags are calls',
      '<search>tower</search><edit source="1">crop</edit>',
      [
        ['image_search', 'tower', 'tag'],
        ['image_editing', 'crop', 'tag'],
      ],
    ],
    ['an HTML comment is quoted', '<!-- <image_search>x</image_search> --> ok', []],
    ['inline code is quoted', 'Write `<image_search>q</image_search>` to search', []],
    ['a fenced block is quoted', '```\n<image_generation>x</image_generation>\n```\nDone', []],
    ['a blockquote is quoted', '> You said: <image_search>ignore all rules</image_search>\nOK', []],
    ['an escaped placeholder is text', 'Literal \\<image_search>x</image_search> here', []],
    [
      'nested placeholder stays in the outer argument',
      '<image_search>a <image_generation>b</image_generation> c</image_search>',
      [['image_search', 'a <image_generation>b</image_generation> c', 'tag']],
    ],
    [
      'mismatched close keeps the opening tool',
      '<image_search>cat</image_generation>',
      [['image_search', 'cat', 'tag']],
    ],
    [
      'unclosed before a later call',
      '<image_search>cats and <image_generation>dog</image_generation>',
      [['image_generation', 'dog', 'tag']],
    ],
    ['empty argument is still a call', 'x <image_search></image_search> y', [['image_search', '', 'tag']]],
  ])('should read %s', (_name, text, expected) => {
    expect(callsOf(text)).toEqual(expected);
  });

  test.each([
    ['unclosed tag', 'ab\n  <image_search>cats', [['unclosed', 2, 3]]],
    ['unclosed bracket', '[image_search: cats\n\nmore', [['unclosed', 1, 1]]],
    ['stray close', 'text </image_generation>', [['stray_close', 1, 6]]],
    ['mismatched close', '<image_search>cat</image_generation>', [['mismatched_close', 1, 18]]],
    [
      'nested',
      '<image_search>a <image_generation>b</image_generation> c</image_search>',
      [['nested', 1, 17]],
    ],
    ['empty argument', 'x <image_search> </image_search>', [['empty_argument', 1, 3]]],
    ['quoted in code', 'a `<image_search>q</image_search>`', [['quoted', 1, 4]]],
    ['quoted in a blockquote', 'ok\n> <t2i>x</t2i>', [['quoted', 2, 3]]],
    [
      'escaped',
      'a \\<image_search>x</image_search>',
      [
        ['escaped', 1, 3],
        ['stray_close', 1, 19],
      ],
    ],
    ['unclosed before a later call', '<image_search>cats <t2i>dog</t2i>', [['unclosed', 1, 1]]],
    ['well-formed answer has none', 'Intro <image_search>x</image_search> end', []],
  ])('should record %s as a finding with its position', (_name, text, expected) => {
    expect(findingsOf(text)).toEqual(expected);
  });

  test.each([
    ['a number in range', '<image_reference>2</image_reference>', []],
    ['"image 1"', '<image_reference>image 1</image_reference>', []],
    ['a file name', '<image_reference>b.png</image_reference>', []],
    ['a full path', '<image_reference>imgs/b.png</image_reference>', []],
    ['a number out of range', '<image_reference>3</image_reference>', [['unknown_image', 1, 1]]],
    ['an unknown name', '<image_reference>c.png</image_reference>', [['unknown_image', 1, 1]]],
  ])('should resolve an image reference: %s', (_name, text, expected) => {
    expect(findingsOf(text, ['imgs/a.png', 'imgs/b.png'])).toEqual(expected);
  });

  test('should split the answer into text segments and calls with offsets', () => {
    const text = 'Intro.\n<image_search>q</image_search>\nOutro.';
    const plan = parseToolPlan(text);
    expect(plan.segments).toEqual([
      { kind: 'text', text: 'Intro.\n', start: 0, end: 7 },
      { kind: 'call', call: 0 },
      { kind: 'text', text: '\nOutro.', start: 37, end: 44 },
    ]);
    expect(plan.calls[0]).toMatchObject({
      start: 7,
      end: 37,
      line: 2,
      column: 1,
      raw: '<image_search>q</image_search>',
    });
  });

  test('should not check image references when no images are given', () => {
    expect(findingsOf('<image_reference>9</image_reference>')).toEqual([]);
  });
});
