import { describe, expect, test } from 'vitest';
import { isLabelKey, sanitizeLabels } from './sanitize-labels.js';

describe('isLabelKey', () => {
  test.each([
    'label',
    'Label',
    'gold',
    'gold_answer',
    'goldAnswer',
    'winner',
    'Winner',
    'preference',
    'preference-strength',
    'chosen',
    'chosen_response',
    'chosenResponse',
    'rejected',
    'REJECTED',
    'correct',
    'is_correct',
    'isCorrect',
    'scores',
    'human_scores',
    'order',
    'shuffleOrder',
    'model',
    'model_a',
    'modelB',
    'model_name',
    'label2',
  ])('should remove %j', (key) => {
    expect(isLabelKey(key)).toBe(true);
  });

  test.each([
    'data_source',
    'domain',
    'language',
    'reference',
    'tests',
    'prompt_id',
    'incorrectly_formatted',
    'reorder',
  ])('should keep %j', (key) => {
    expect(isLabelKey(key)).toBe(false);
  });
});

describe('sanitizeLabels', () => {
  test('should remove label keys at any depth, inside arrays too, and list their paths', () => {
    const { value, removed } = sanitizeLabels({
      domain: 'math',
      winner: 'A',
      nested: { Chosen: 'x', keep: [1, { gold_answer: '42', note: 'n' }] },
      items: [{ isCorrect: true, text: 't' }],
    });
    expect(value).toEqual({ domain: 'math', nested: { keep: [1, { note: 'n' }] }, items: [{ text: 't' }] });
    expect(removed).toEqual(['winner', 'nested.Chosen', 'nested.keep[1].gold_answer', 'items[0].isCorrect']);
  });
});
