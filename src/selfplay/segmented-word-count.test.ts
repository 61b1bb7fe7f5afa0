import { expect, test } from 'vitest';
import { segmentedWordCount } from './segmented-word-count.js';

test.each([
  ['Which river town was founded in 1432 by a cartographer?', 10],
  ['巴黎是法国的首都', 5],
  ['法国的首都是哪个城市？', 6], // 法国 / 的 / 首都 / 是 / 哪个 / 城市
  ['one, two; three... four!', 4],
  ['', 0],
])('should count %j as %i words', (text, words) => {
  expect(segmentedWordCount(text)).toBe(words);
});
