import { describe, expect, test } from 'vitest';
import { tokenize } from './tokenize.js';

describe('tokenize', () => {
  test.each([
    ['The Eiffel Tower, built in 1889!', ['the', 'eiffel', 'tower', 'built', 'in', '1889']],
    ['巴黎是法国的首都。', ['巴黎', '是', '法国', '的', '首都']],
    ['北京大学 and Tokyo', ['北京', '大学', 'and', 'tokyo']],
    ['ＦＵＬＬ width', ['full', 'width']],
    ['Ünïcode café', ['ünïcode', 'café']],
    ['  ... !!! ', []],
  ])('should segment %j by script', (text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });
});

test('should give what one ICU pass over the whole text gives', () => {
  const icu = new Intl.Segmenter('und', { granularity: 'word' });
  const whole = (text: string) =>
    [...icu.segment(text.normalize('NFKC').toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment);
  for (const text of [
    "Don't stop: e.g. 3.14, 1,200 and foo_bar — naïve café\tcoöperate\n\nend.",
    '東京タワーは1958年に完成した。 北京大学 位于 海淀区',
    'a \u0301b  c\u200dd ‘quoted’ “double” x.y.z 12:30',
    'ภาษาไทยง่ายนิดเดียว and 한국어 문장',
  ]) {
    expect(tokenize(text)).toEqual(whole(text));
    expect(tokenize(text)).toEqual(whole(text)); // again, from the chunk cache
  }
});

test.each([
  'word',
  'word,',
  'word.',
  '(word)',
  '"word"',
  "'word'",
  'end.)',
  '12,',
  '3.',
  'abc:',
  'x!?',
  'e.g.',
  '3.14',
  '1,200',
  "don't",
  'a.b',
  'foo_bar',
  '12:30',
  '(a.b)',
  'x-y',
  'a/b',
  "'s",
])('should split the ASCII chunk %j as ICU does', (chunk) => {
  const icu = new Intl.Segmenter('und', { granularity: 'word' });
  expect(tokenize(chunk)).toEqual([...icu.segment(chunk)].filter((s) => s.isWordLike).map((s) => s.segment));
});
