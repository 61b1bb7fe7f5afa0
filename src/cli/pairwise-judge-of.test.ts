import { describe, expect, test } from 'vitest';
import type { ChatModel } from '../llm/index.js';
import { pairwiseJudgeNames, pairwiseJudgeOf } from './pairwise-judge-of.js';

const model: ChatModel = {
  name: 'never-called',
  complete: () => Promise.reject(new Error('not in this test')),
};

describe('pairwise judges from the judge kinds', () => {
  test('should offer every judge kind that can judge a pair', () => {
    expect(pairwiseJudgeNames()).toEqual(['genrm', 'openrs', 'skill_rm']);
  });

  test.each(['genrm', 'openrs', 'skill_rm'])('should build the %s judge under its own name', (name) => {
    expect(pairwiseJudgeOf(name, model, { reasks: 0 }).name).toBe(name);
  });

  test('should refuse an unknown judge and a param the kind does not take, naming them', () => {
    expect(() => pairwiseJudgeOf('nope', model, {})).toThrow(
      '--judge: unknown judge "nope" (known: genrm, openrs, skill_rm)',
    );
    expect(() => pairwiseJudgeOf('openrs', model, { votes: 3 })).toThrow(/--judge openrs: .*votes/);
  });
});
