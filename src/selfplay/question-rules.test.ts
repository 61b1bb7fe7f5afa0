import { describe, expect, test } from 'vitest';
import { answerInQuestion, questionRuleRejections } from './question-rules.js';

const doc = { contents: 'Velmora\nA river town founded in 1432.', score: 1 };
const good = {
  question: 'Which cartographer founded the river town that lies where the Orrin valley opens?',
  golds: ['Isel Tarn'],
  searches: ['Orrin valley river town', 'founder of Velmora'],
  documents: [[doc], [doc]],
};
const codes = (p: Partial<typeof good> & { question?: string | null }) =>
  questionRuleRejections({ ...good, ...p }).map((r) => r.code);

describe('questionRuleRejections', () => {
  test('should pass a well-built question', () => {
    expect(questionRuleRejections(good)).toEqual([]);
  });

  test.each([
    ['no question block', { question: null }, ['no_question']],
    ['an empty question', { question: '' }, ['no_question']],
    ['fewer than 10 characters', { question: 'Who? Tarn' }, ['too_short', 'too_few_words']],
    ['more than 1000 characters', { question: `Which ${'very '.repeat(250)}old town?` }, ['too_long']],
    ['fewer than 10 words', { question: 'Which cartographer founded Velmora town?' }, ['too_few_words']],
    ['fewer than 10 Chinese words', { question: '法国的首都是哪个城市？' }, ['too_few_words']],
    [
      'the answer inside the question',
      { question: 'Was it Isel Tarn, the cartographer, who founded the river town of Velmora?' },
      ['answer_in_question'],
    ],
    [
      'the answer in another case and punctuation',
      { question: 'Did ISEL-TARN found the town where the Orrin valley opens into the plain?' },
      ['answer_in_question'],
    ],
    ['no retrieved content', { documents: [[], []] }, ['no_retrieved_content']],
    ['no search at all', { searches: [], documents: [] }, ['no_retrieved_content', 'too_few_searches']],
    ['one search', { searches: ['founder of Velmora'], documents: [[doc]] }, ['too_few_searches']],
    ['a repeated search', { searches: ['Founder of Velmora', 'founder of velmora?'] }, ['repeated_search']],
  ] as const)('should reject %s', (_name, change, expected) => {
    expect(codes(change as Partial<typeof good>)).toEqual(expected);
  });

  test('should say why, in numbers', () => {
    expect(
      questionRuleRejections({ ...good, question: 'Who? Tarn', searches: ['a'], documents: [[doc]] }),
    ).toEqual([
      { code: 'too_short', message: '9 characters, fewer than 10' },
      { code: 'too_few_words', message: '2 words, fewer than 10' },
      { code: 'too_few_searches', message: '1 search(es), fewer than 2' },
    ]);
  });

  test('should count a ten-word Chinese question as long enough', () => {
    const zh = '哪位制图师建立了奥林河谷出口处的那座河边小镇？';
    expect(codes({ question: zh, golds: ['伊塞尔·塔恩'] })).toEqual([]);
  });
});

describe('answerInQuestion', () => {
  test.each([
    ['Where is the capital of France?', ['Paris'], null],
    ['Is the answer in this comparison?', ['Paris'], null],
    ['Is it the Paris of Texas?', ['paris'], 'paris'],
    ['巴黎是哪个国家的首都？', ['巴黎'], '巴黎'],
    ['Which year?', ['', '  '], null],
  ])('should find %j in %j: %j', (question, golds, expected) => {
    expect(answerInQuestion(question, golds)).toBe(expected);
  });
});
