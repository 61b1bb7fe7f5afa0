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
