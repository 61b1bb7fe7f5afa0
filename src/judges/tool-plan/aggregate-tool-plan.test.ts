import { describe, expect, test } from 'vitest';
import { aggregateToolPlan, type ToolPlanComponents, type ToolPlanWeights } from './aggregate-tool-plan.js';

type Call = {
  necessity: 'necessary' | 'helpful' | 'unnecessary';
  appropriateness: 'appropriate' | 'partly_appropriate' | 'inappropriate';
};
const c = (necessity: Call['necessity'], appropriateness: Call['appropriateness']): Call => ({
  necessity,
  appropriateness,
});
const crit = { importance: 'critical' as const };
const minor = { importance: 'minor' as const };

// The worked vectors of docs/tool-plan.md.
describe('aggregateToolPlan', () => {
  test.each<[string, Parameters<typeof aggregateToolPlan>[0], ToolPlanWeights, ToolPlanComponents]>([
    [
      'V1 two calls, one critical miss, overall 8',
      {
        calls: [c('necessary', 'appropriate'), c('helpful', 'partly_appropriate')],
        missed: [crit],
        overall: 8,
      },
      {},
      { precision: 0.625, recall: 0.6, overall: 7 / 9, f1: 0.6122448979591837, score: 0.6675925925925926 },
    ],
    [
      'V2 no calls, two misses, overall 3',
      { calls: [], missed: [crit, minor], overall: 3 },
      {},
      { precision: null, recall: 0, overall: 2 / 9, f1: null, score: 1 / 9 },
    ],
    [
      'V3 no calls needed, none planned, overall 10',
      { calls: [], missed: [], overall: 10 },
      {},
      { precision: null, recall: null, overall: 1, f1: null, score: 1 },
    ],
    [
      'V4 one unnecessary call, nothing missed, overall 5',
      { calls: [c('unnecessary', 'appropriate')], missed: [], overall: 5 },
      {},
      { precision: 0, recall: null, overall: 4 / 9, f1: null, score: 2 / 9 },
    ],
    [
      'V5 weights precision 2, recall 1, overall 0',
      {
        calls: [c('necessary', 'appropriate'), c('helpful', 'partly_appropriate')],
        missed: [crit],
        overall: 8,
      },
      { precision: 2, recall: 1, overall: 0 },
      { precision: 0.625, recall: 0.6, overall: 7 / 9, f1: 0.6122448979591837, score: 0.6166666666666667 },
    ],
    [
      'V6 missed role unavailable, overall unavailable',
      { calls: [c('necessary', 'inappropriate')], missed: null, overall: null },
      {},
      { precision: 0, recall: null, overall: null, f1: null, score: 0 },
    ],
    [
      'V7 precision and recall both 0',
      { calls: [c('unnecessary', 'inappropriate')], missed: [minor], overall: 1 },
      {},
      { precision: 0, recall: 0, overall: 0, f1: 0, score: 0 },
    ],
    [
      'V8 only a zero-weighted component applies',
      { calls: [], missed: [], overall: 6 },
      { overall: 0 },
      { precision: null, recall: null, overall: 5 / 9, f1: null, score: null },
    ],
  ])('%s', (_name, input, weights, expected) => {
    const got = aggregateToolPlan(input, weights);
    for (const key of Object.keys(expected) as Array<keyof ToolPlanComponents>) {
      const want = expected[key];
      if (want === null) expect(got[key], key).toBeNull();
      else expect(got[key], key).toBeCloseTo(want, 12);
    }
  });

  test('should refuse weights that are all zero', () => {
    expect(() =>
      aggregateToolPlan({ calls: [], missed: [], overall: 5 }, { precision: 0, recall: 0, overall: 0 }),
    ).toThrow(/at least one weight/);
  });
});
