import { describe, expect, test } from 'vitest';
import { ragasFaithfulness } from './ragas-faithfulness.js';

describe('ragasFaithfulness', () => {
  test.each([
    [3, 4, 0.75],
    [0, 5, 0],
    [5, 5, 1],
    [1, 3, 1 / 3],
  ])('%i supported of %i -> %d', (supported, total, score) => {
    expect(ragasFaithfulness(supported, total)).toBeCloseTo(score, 12);
  });

  test('should be undefined for an answer with no claims', () => {
    expect(ragasFaithfulness(0, 0)).toBeUndefined();
  });
});
